// The fast path of `hooks list|info|runs|events` (issue 25, docs/PERFORMANCE.md): the command
// run without oclif, once src/cli/fast-argv.ts has parsed argv with certainty. The build makes
// this file and everything it loads one bundle, dist/fast.js, which loads no @oclif/core
// (test/e2e/import-graph.test.ts). The command bodies, the checks after parsing, output and the
// error path are the ones the oclif commands call (src/cli/bodies/, src/cli/command-io.ts), so
// both paths answer alike (test/e2e/fast-path.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runEvents, type EventsFlags } from './bodies/events.js';
import { runInfo, type InfoFlags } from './bodies/info.js';
import { runList, type ListFlags } from './bodies/list.js';
import { runRuns, type RunsFlags } from './bodies/runs.js';
import { checkParsed, commandIO, flagNames, reportError } from './command-io.js';
import type { FastParse, FlagTable } from './fast-argv.js';
import { HookctlError } from '../errors.js';
import { recordAnswer, type AnswerSlot } from './answer-cache.js';
import { hearWrites, writeToDescriptors } from './output.js';

/** Flags with which a fast command does more than print what it read: never answered from the answer cache. */
const SIDE_EFFECT_FLAGS = ['export', 'endpoint', 'follow'];

/**
 * Runs the parsed command as the oclif path would, errors included. `sourcesRead` hears the kinds
 * of declaration source the command read (boot.ts hands them to the compile cache).
 */
export async function runFast(
  parse: FastParse,
  table: FlagTable,
  root: string,
  sourcesRead?: (kinds: readonly string[]) => void,
  answer?: AnswerSlot,
): Promise<void> {
  writeToDescriptors();
  // boot.ts found no answer it could serve in this slot: this run's is recorded, unless the
  // command does more than answer (sends records out, or follows a log until interrupted).
  const answers = !SIDE_EFFECT_FLAGS.some((name) => parse.flags[name] !== undefined);
  const recording = answer && answers ? recordAnswer(answer) : undefined;
  if (recording) hearWrites((fd, text) => recording.wrote(fd, text));
  let kept = true;
  const io = commandIO(
    root,
    () => (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version,
    sourcesRead,
  );
  try {
    checkParsed(parse.flags, parse.lastOutput);
    const flags = parse.flags as unknown;
    switch (parse.id) {
      case 'hooks:list':
        return await runList(io, flags as ListFlags);
      case 'hooks:info':
        return await runInfo(io, flags as InfoFlags, parse.args as { name: string });
      case 'hooks:runs':
        return await runRuns(io, flags as RunsFlags);
      case 'hooks:events':
        return await runEvents(io, flags as EventsFlags, parse.args);
      default:
        throw new Error(`no fast path for ${parse.id}`);
    }
  } catch (err) {
    kept = err instanceof HookctlError; // an answer, as a listing is; not a fault of hookctl's
    const command = table.commands[parse.id];
    reportError(err as Error, {
      argv: parse.argv,
      knownFlags: flagNames(command?.flags ?? {}),
      bin: table.bin,
      id: parse.id,
    });
  } finally {
    if (recording) {
      hearWrites(undefined);
      recording.finish(kept, typeof process.exitCode === 'number' ? process.exitCode : 0);
    }
  }
}
