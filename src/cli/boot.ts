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
import {
  enableCompileCache,
  loadFromCache,
  recordSourcesRead,
  type ModuleLike,
  type ModuleStatic,
} from './compile-cache.js';
import { fastParse, handOverForEnv, namesFastCommand, type FastParse, type FlagTable } from './fast-argv.js';

export { cacheVariant, enableCompileCache, loadFromCache } from './compile-cache.js';
export { FAST_COMMAND_IDS } from './fast-argv.js';

interface FastMain {
  runFast(
    parse: FastParse,
    table: FlagTable,
    root: string,
    sourcesRead: (kinds: readonly string[]) => void,
  ): Promise<void>;
}

interface OclifPath {
  runCli(argv: string[], root: string): Promise<void>;
}

/** Runs hookctl with `argv` (without node and the script); `main` is bin/run.js's `module`. */
export function boot(main: ModuleLike, argv: string[], root: string): void {
  enableCompileCache(main.constructor as unknown as ModuleStatic);
  const fast = fastPathParse(argv, root);
  if (fast) {
    // One compile-cache entry of the file per command: each holds the code its own command calls.
    const file = loadFromCache(main, join(root, 'dist', 'fast-main.js'), fast.parse.id) as FastMain;
    // What the command read tells the cache what its entry of the file must hold.
    void file.runFast(fast.parse, fast.table, root, recordSourcesRead);
  } else void (main.require(join(root, 'dist', 'cli', 'run.js')) as OclifPath).runCli(argv, root);
}

/** The fast path's parse of argv, or undefined: the oclif path runs the command. */
function fastPathParse(argv: string[], root: string): { parse: FastParse; table: FlagTable } | undefined {
  if (!namesFastCommand(argv) || handOverForEnv(process.env)) return undefined;
  let table: FlagTable;
  try {
    table = JSON.parse(readFileSync(join(root, 'dist', 'fast-flags.json'), 'utf8')) as FlagTable;
  } catch {
    return undefined;
  }
  const parse = fastParse(table, argv);
  return parse && { parse, table };
}
