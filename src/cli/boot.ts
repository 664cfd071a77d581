// What bin/run.js runs: the compile cache installed, then `hooks list|info|runs|events` from the
// fast path when its parser is certain of argv (issue 25, docs/DESIGN.md "The fast path of the
// read commands"), anything else from the oclif path (dist/cli/run.js), chosen before anything is
// printed. The build makes this file, the compile cache and the argv parser one file with no
// import of hookctl's (dist/cli/boot.js): each file bin/run.js required cost a module lookup, a
// cache entry read and checked, and the loader's own first-call compiles, ~1.2 ms of every start
// for the parser's 4 KB alone (docs/PERFORMANCE.md). It is compiled on every start (the cache
// cannot serve the file that installs it), so it stays small.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerSlot, serveAnswer, type AnswerSlot } from './answer-cache.js';
import {
  checksum,
  enableCompileCache,
  loadFromCache,
  recordSourcesRead,
  type ModuleLike,
  type ModuleStatic,
} from './compile-cache.js';
import { fastParse, handOverForEnv, namesFastCommand, type FastParse, type FlagTable } from './fast-argv.js';
import { writeErr, writeOut, writeToDescriptors } from './output.js';

export { cacheVariant, enableCompileCache, loadFromCache } from './compile-cache.js';
export { FAST_COMMAND_IDS } from './fast-argv.js';

interface FastMain {
  runFast(
    parse: FastParse,
    table: FlagTable,
    root: string,
    sourcesRead: (kinds: readonly string[]) => void,
    answer: AnswerSlot | undefined,
  ): Promise<void>;
}

interface OclifPath {
  runCli(argv: string[], root: string): Promise<void>;
}

/** Runs hookctl with `argv` (without node and the script); `main` is bin/run.js's `module`. */
export function boot(main: ModuleLike, argv: string[], root: string): void {
  const cache = enableCompileCache(main.constructor as unknown as ModuleStatic);
  const fastCommand = namesFastCommand(argv) && !handOverForEnv(process.env);
  // The answer of an earlier run with this argv, while everything it read is unchanged
  // (src/cli/answer-cache.ts): written without loading the command at all.
  const Module = main.constructor as unknown as ModuleStatic;
  const answer =
    fastCommand && cache.dir !== undefined ? answerSlot(cache.dir, argv, root, checksum, Module._cache) : undefined;
  if (answer !== undefined && serveAnswer(answer, served)) return;
  const fast = fastCommand ? fastPathParse(argv, root) : undefined;
  if (fast) {
    // One compile-cache entry of the file per command: each holds the code its own command calls.
    const file = loadFromCache(main, join(root, 'dist', 'fast-main.js'), fast.parse.id) as FastMain;
    // What the command read tells the cache what its entry of the file must hold.
    void file.runFast(fast.parse, fast.table, root, recordSourcesRead, answer);
  } else void (main.require(join(root, 'dist', 'cli', 'run.js')) as OclifPath).runCli(argv, root);
}

let writing = false;
function served(fd: 1 | 2, text: string): void {
  if (!writing) writeToDescriptors();
  writing = true;
  if (fd === 1) writeOut(text);
  else writeErr(text);
}

/** The fast path's parse of argv, or undefined: the oclif path runs the command. */
function fastPathParse(argv: string[], root: string): { parse: FastParse; table: FlagTable } | undefined {
  let table: FlagTable;
  try {
    table = JSON.parse(readFileSync(join(root, 'dist', 'fast-flags.json'), 'utf8')) as FlagTable;
  } catch {
    return undefined;
  }
  const parse = fastParse(table, argv);
  return parse && { parse, table };
}
