// What every hookctl command does around its work, free of oclif: the checks after parsing, the
// output format, locations and colour, writing results, warnings and notes, and the one error
// path. The oclif base command (src/cli/base-command.ts) and the fast path of the read commands
// (src/cli/fast.ts, docs/PERFORMANCE.md) both call these, so the two paths cannot answer
// differently.
import { statSync } from 'node:fs';
import { dialects } from '../dialects/registry.js';
import { HookctlError, ExitCode, usageError } from '../errors.js';
import { resolveLocations, type Locations } from '../paths.js';
import { wantsJson } from './argv.js';
import { colourEnabled, makeColour, type Colour } from './colour.js';
import { didYouMean } from '../matching/suggest.js';
import { writeErr, writeOut } from './output.js';
import { safeText } from './safe-text.js';

export type OutputFormat = 'human' | 'json' | 'jsonl';

/** The shared flags of SPEC §6 as parsed (dialect flags such as --compozy-version besides). */
export interface BaseFlagValues {
  workspace?: string;
  'additional-dir'?: string[];
  'plugin-dir'?: string[];
  output?: string;
  json?: boolean;
  color?: boolean;
}

/**
 * The checks every command shares after parsing (SPEC §7.1, §7.4): the folders a user typed must
 * exist, and --json must not contradict an explicit -o (`lastOutput`: the text of the last -o
 * given) — then the dialects are configured before anything reads them.
 */
export function checkParsed(flags: Record<string, unknown>, lastOutput: string | undefined): void {
  const f = flags as BaseFlagValues;
  if (f.workspace !== undefined) checkFolder('workspace', f.workspace);
  for (const dir of f['additional-dir'] ?? []) checkFolder('additional dir', dir);
  if (f.json && lastOutput !== undefined && lastOutput !== 'json')
    throw usageError(`--json and -o ${lastOutput} disagree: give one of them`);
  configureDialects(flags);
}

/**
 * Gives every dialect its settings: the invoking environment, with each global flag given on the
 * command line in place of its variable. A bad flag value is the dialect's usage error, and so is
 * a bad variable of the dialect `--dialect` names; any other bad variable is the dialect's own
 * concern (Dialect.configure).
 */
export function configureDialects(flags: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): void {
  for (const d of dialects()) {
    if (!d.configure) continue;
    // Read through to `env`, not a copy of it: a copy reads every variable, and the answer cache
    // (src/cli/answer-cache.ts) would then depend on all of them, not the few a dialect reads.
    const settings = Object.create(env) as NodeJS.ProcessEnv;
    const typed = new Set<string>();
    for (const f of d.globalFlags ?? []) {
      if (typeof flags[f.name] !== 'string') continue;
      settings[f.env] = flags[f.name] as string;
      typed.add(f.env);
    }
    // A command aimed at this dialect (--dialect) uses its settings: all of them count as typed.
    if (flags.dialect === d.name) for (const f of d.globalFlags ?? []) typed.add(f.env);
    d.configure(settings, typed);
  }
}

/** `--workspace` / `--additional-dir` must name a folder (SPEC §7.1): else a usage error, exit 2. */
export function checkFolder(what: 'workspace' | 'additional dir', path: string): void {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    throw new HookctlError('directory_not_found', `${what} "${path}" does not exist`, ExitCode.usage);
  }
  if (!isFolder) throw new HookctlError('not_a_directory', `${what} "${path}" is not a directory`, ExitCode.usage);
}

/** What a command body needs of its command: output, locations and colour (both paths give it). */
export interface CommandIO {
  /** hookctl's version (package.json), read when asked. */
  version(): string;
  outputFormat(flags: BaseFlagValues): OutputFormat;
  locations(flags: BaseFlagValues): Locations;
  colour(flags: BaseFlagValues): Colour;
  print(text: string): void;
  printJson(value: unknown): void;
  printJsonArray<T>(items: readonly T[], toJson: (item: T) => unknown): void;
  printJsonl(values: Iterable<unknown>): void;
  printWarning(text: string): void;
  printNote(text: string): void;
  exitWith(code: number): void;
  /**
   * Hears which kinds of declaration source a command read (`dialect/source`): the fast path's
   * compile cache keeps its file's code for them (src/cli/compile-cache.ts, recordSourcesRead).
   */
  sourcesRead?(kinds: readonly string[]): void;
}

/** The CommandIO of a run whose package root is `packageRoot`. */
export function commandIO(
  packageRoot: string,
  version: () => string,
  sourcesRead?: (kinds: readonly string[]) => void,
): CommandIO {
  return {
    sourcesRead,
    version,
    outputFormat,
    locations: (flags) => locationsOf(flags, packageRoot),
    colour: colourOf,
    print,
    printJson,
    printJsonArray,
    printJsonl,
    printWarning,
    printNote,
    exitWith,
  };
}

export function outputFormat(flags: BaseFlagValues): OutputFormat {
  return flags.json ? 'json' : (flags.output as OutputFormat);
}

export function locationsOf(flags: BaseFlagValues, packageRoot: string): Locations {
  return resolveLocations({
    workspace: flags.workspace,
    additionalDirs: flags['additional-dir'],
    pluginDirs: flags['plugin-dir'],
    packageRoot,
  });
}

export function colourOf(flags: BaseFlagValues): Colour {
  return makeColour(colourEnabled({ flag: flags.color }));
}

/** Writes text to stdout, newline-terminated. */
export function print(text: string): void {
  if (text === '') return;
  const safe = safeText(text); // human output: no control character of the data reaches the terminal
  writeOut(safe.endsWith('\n') ? safe : safe + '\n');
}

export function printJson(value: unknown): void {
  writeOut(JSON.stringify(value, null, 2) + '\n');
}

/**
 * Prints `items.map(toJson)` exactly as printJson would, one item at a time, so a long list
 * is never held whole (as objects, then as one string) in memory.
 */
export function printJsonArray<T>(items: readonly T[], toJson: (item: T) => unknown): void {
  writeChunked(jsonArrayParts(items, toJson));
}

export function printJsonl(values: Iterable<unknown>): void {
  writeChunked(
    (function* () {
      for (const v of values) yield JSON.stringify(v) + '\n';
    })(),
  );
}

/** Warnings go to stderr so JSON on stdout stays a document alone. */
export function printWarning(text: string): void {
  writeErr(`hookctl: warning: ${safeText(text)}\n`);
}

/** A note: something the user may not expect, not a problem. stderr, as warnings. */
export function printNote(text: string): void {
  writeErr(`hookctl: note: ${safeText(text)}\n`);
}

/**
 * Ends the command with this exit code. It sets process.exitCode and returns instead of calling
 * process.exit(): a large document still being written to a pipe would be cut off by an exit.
 */
export function exitWith(code: number): void {
  if (code !== ExitCode.ok) process.exitCode = code;
}

/** What reportError needs to know of the command that failed. */
export interface FailedCommand {
  argv: string[];
  /** `--name` and `-c` of every flag the command takes, for "did you mean". */
  knownFlags: string[];
  bin: string;
  id: string | undefined;
  /** Whether `err` is one of oclif's CLI errors (the fast path has none). */
  isCliError?: (err: Error) => boolean;
}

/**
 * The one error path: one short line on stderr, or `{error:{code,message,exit}}` on stdout under
 * --json / -o json, with the same exit code either way.
 */
export function reportError(err: Error, command: FailedCommand): void {
  const e = toHookctlError(err as Error & ParseErrorFields, command.knownFlags, command.isCliError);
  if (wantsJson(command.argv)) {
    const body: Record<string, unknown> = { code: e.code, message: e.message, exit: e.exit, ...e.data };
    writeOut(JSON.stringify({ error: body }) + '\n');
  } else {
    let text = `hookctl: ${e.message}\n`;
    for (const d of e.details) text += `  ${d}\n`;
    if (e.code === 'usage_error') text += `See: ${command.bin} ${command.id?.replaceAll(':', ' ') ?? ''} --help\n`;
    writeErr(safeText(text));
  }
  if (process.env.HOOKCTL_DEBUG && !(err instanceof HookctlError)) writeErr(`${err.stack}\n`);
  // Not process.exit(): what was just written must reach a slow pipe reader whole.
  process.exitCode = e.exit;
}

/** `--name`, `--no-name` and `-c` of each flag, for "did you mean". */
export function flagNames(flags: Record<string, { allowNo?: boolean; char?: string }>): string[] {
  const names: string[] = [];
  for (const [name, flag] of Object.entries(flags)) {
    names.push(`--${name}`);
    if (flag.allowNo) names.push(`--no-${name}`);
    if (flag.char) names.push(`-${flag.char}`);
  }
  return names;
}

/** What oclif's parse errors carry besides the message. */
export type ParseErrorFields = {
  oclif?: { exit?: number };
  code?: string;
  flags?: string[];
  args?: { name?: string }[];
};

/**
 * Maps anything thrown to a HookctlError: oclif parse errors are usage errors (exit 2), in one
 * line that keeps the reason (oclif puts it on the lines after the first). `knownFlags` feeds the
 * "did you mean" of an unknown flag.
 */
export function toHookctlError(
  err: Error & ParseErrorFields,
  knownFlags: string[] = [],
  isCliError: (err: Error) => boolean = () => false,
): HookctlError {
  if (err instanceof HookctlError) return err;
  const exit = err.oclif?.exit;
  if (exit !== undefined || isCliError(err)) {
    const code = exit ?? ExitCode.usage;
    if (err.constructor?.name === 'NonExistentFlagsError' && Array.isArray(err.flags) && err.flags.length > 0) {
      const flag = err.flags[0]!.split('=')[0]!;
      const more = err.flags.length > 1 ? ` (and ${err.flags.length - 1} more)` : '';
      return new HookctlError('unknown_flag', `unknown flag "${flag}"${more}${didYouMean(flag, knownFlags)}`, code);
    }
    if (err.constructor?.name === 'RequiredArgsError' && Array.isArray(err.args) && err.args.length > 0) {
      const names = err.args.map((a) => a.name ?? '?');
      return new HookctlError(
        'usage_error',
        `Missing ${names.length} required arg${names.length === 1 ? '' : 's'}: ${names.join(', ')}`,
        code,
      );
    }
    return new HookctlError('usage_error', parseErrorText(err.message ?? String(err)), code);
  }
  return new HookctlError('internal_error', `internal error: ${oneLine(err.message ?? String(err))}`, 1);
}

/** The text of `JSON.stringify(items.map(toJson), null, 2) + '\\n'`, in pieces. */
export function* jsonArrayParts<T>(items: readonly T[], toJson: (item: T) => unknown): Generator<string> {
  if (items.length === 0) {
    yield '[]\n';
    return;
  }
  for (let i = 0; i < items.length; i++) {
    // JSON text has no raw newline inside strings, so indenting every line is safe.
    const item = JSON.stringify(toJson(items[i]!), null, 2) ?? 'null';
    yield (i === 0 ? '[\n  ' : ',\n  ') + item.replaceAll('\n', '\n  ');
  }
  yield '\n]\n';
}

/** Writes pieces of text to stdout in writes of about 64 KiB. */
function writeChunked(parts: Iterable<string>): void {
  let buffer = '';
  for (const part of parts) {
    buffer += part;
    if (buffer.length >= 65536) {
      writeOut(buffer);
      buffer = '';
    }
  }
  if (buffer !== '') writeOut(buffer);
}

// eslint-disable-next-line no-control-regex
const SGR = /\u001B\[[0-9;]*m/g;

/**
 * One line from an oclif parse error, its reason kept: oclif writes `Missing 1 required arg:`,
 * `Parsing --last` or `The following error occurred:` on the first line and the reason on the
 * next ones (dimmed), then `See more help with --help` and notes about multiple-value flags.
 */
export function parseErrorText(message: string): string {
  const lines = message
    .replace(SGR, '')
    .split('\n')
    .map((l) => l.trim().replace(/\s{2,}/g, ' '))
    .filter((l) => l !== '' && !/^the following errors? occurred:?$/i.test(l));
  const end = lines.findIndex((l) => /^see more help with/i.test(l) || /^note:/i.test(l));
  const kept = end < 0 ? lines : lines.slice(0, end);
  if (kept.length === 0) return message.trim();
  const [head, ...reason] = kept;
  if (reason.length === 0) return head!;
  return `${head!.replace(/:$/, '')}: ${reason.join('; ')}`;
}

function oneLine(s: string): string {
  return s.split('\n')[0].trim();
}
