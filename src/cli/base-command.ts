// The base of every hookctl command: the shared flags of SPEC §6, output format selection, and
// one error path. Errors become one short line on stderr, or `{error:{code,message,exit}}` on
// stdout under --json / -o json, with the same exit code either way (oclif's own JSON error
// would dump its whole config).
// oclif is imported by subpath, never from '@oclif/core' itself: the package index checks the
// Node version with semver and evaluates every export (help, ux, …), about a tenth of a command's
// start-up. Commands take Flags and Args from here. (The build turns these imports into plain
// requires of oclif's CommonJS files: scripts/build.mjs.)
import { safeText } from './safe-text.js';
import { statSync } from 'node:fs';
import type { Interfaces } from '@oclif/core';
import * as Args from '@oclif/core/args';
import { Command } from '@oclif/core/command';
import { CLIError, ExitError } from '@oclif/core/errors';
import * as Flags from '@oclif/core/flags';
import { dialects } from '../dialects/registry.js';
import { HookctlError, ExitCode, usageError } from '../errors.js';
import { resolveLocations, type Locations } from '../paths.js';
import { wantsJson } from './argv.js';
import { colourEnabled, makeColour, type Colour } from './colour.js';
import { didYouMean } from '../matching/suggest.js';
import { writeErr, writeOut } from './output.js';

export { Args, Flags };

// Every positional argument is declared with `ignoreStdin: true`. oclif otherwise reads a missing
// positional from stdin when stdin is not a terminal (waiting up to 10 ms for it): `echo '{}' |
// hookctl hooks validate` would validate a file named `{}`, and `hooks fire` reads its payload from
// stdin itself (test/e2e/cli-conventions.test.ts).

export type OutputFormat = 'human' | 'json' | 'jsonl';

export const baseFlags = {
  workspace: Flags.string({ description: 'Workspace root.', default: undefined, helpGroup: 'GLOBAL' }),
  'additional-dir': Flags.string({
    description: 'compozy: an additional directory whose .compozy/ agents and skills are read (repeatable).',
    multiple: true,
    helpGroup: 'GLOBAL',
  }),
  'plugin-dir': Flags.string({
    description: 'A Claude Code plugin folder to load as if installed and enabled (repeatable).',
    multiple: true,
    helpGroup: 'GLOBAL',
  }),
  output: Flags.string({
    char: 'o',
    description: 'Output format.',
    options: ['human', 'json', 'jsonl'],
    default: 'human',
    helpGroup: 'GLOBAL',
  }),
  json: Flags.boolean({ description: 'Same as -o json.', helpGroup: 'GLOBAL' }),
  color: Flags.boolean({
    description: 'Colour human output (default: on for a TTY, off with NO_COLOR or TERM=dumb).',
    allowNo: true,
    helpGroup: 'GLOBAL',
  }),
};

/**
 * The flags dialects add to every command (compozy: `--compozy-version`), each standing for an
 * environment variable it beats. Built from the registry, so no dialect is named here.
 */
const dialectFlags = Object.fromEntries(
  dialects().flatMap((d) =>
    (d.globalFlags ?? []).map((f) => [f.name, Flags.string({ description: f.description, helpGroup: 'GLOBAL' })]),
  ),
);

export type BaseFlags = Interfaces.InferredFlags<typeof baseFlags>;

/**
 * Gives every dialect its settings: the invoking environment, with each global flag given on the
 * command line in place of its variable. A bad flag value is the dialect's usage error, and so is
 * a bad variable of the dialect `--dialect` names; any other bad variable is the dialect's own
 * concern (Dialect.configure).
 */
export function configureDialects(flags: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): void {
  for (const d of dialects()) {
    if (!d.configure) continue;
    const settings = { ...env };
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

// oclif's own constraint for parsed flags and args (not exported by the subpaths imported here).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ParsedOutput = { [name: string]: any };

export abstract class HookctlCommand extends Command {
  static override baseFlags = { ...baseFlags, ...dialectFlags };

  /**
   * Every command parses through here: oclif's parse, then the checks every command shares (SPEC
   * §7.1, §7.4) — the folders a user typed must exist, and --json must not contradict an explicit
   * -o — then the dialects are configured before anything reads them. Here rather than in each
   * command, so that no command (a mutation included) can run on a typo.
   */
  protected override async parse<F extends ParsedOutput, B extends ParsedOutput, A extends ParsedOutput>(
    options?: Interfaces.Input<F, B, A>,
    argv?: string[],
  ): Promise<Interfaces.ParserOutput<F, B, A>> {
    const parsed = await super.parse(options, argv);
    const flags = parsed.flags as Partial<BaseFlags>;
    if (flags.workspace !== undefined) checkFolder('workspace', flags.workspace);
    for (const dir of flags['additional-dir'] ?? []) checkFolder('additional dir', dir);
    const output = parsed.raw.findLast((t) => t.type === 'flag' && t.flag === 'output');
    if (flags.json && output !== undefined && output.input !== 'json')
      throw usageError(`--json and -o ${output.input} disagree: give one of them`);
    configureDialects(parsed.flags as Record<string, unknown>);
    return parsed;
  }

  protected outputFormat(flags: BaseFlags): OutputFormat {
    return flags.json ? 'json' : (flags.output as OutputFormat);
  }

  protected locations(flags: BaseFlags): Locations {
    return resolveLocations({
      workspace: flags.workspace,
      additionalDirs: flags['additional-dir'],
      pluginDirs: flags['plugin-dir'],
      packageRoot: this.config.root,
    });
  }

  protected colour(flags: BaseFlags): Colour {
    return makeColour(colourEnabled({ flag: flags.color }));
  }

  /** Writes text to stdout, newline-terminated. */
  protected print(text: string): void {
    if (text === '') return;
    const safe = safeText(text); // human output: no control character of the data reaches the terminal
    writeOut(safe.endsWith('\n') ? safe : safe + '\n');
  }

  protected printJson(value: unknown): void {
    writeOut(JSON.stringify(value, null, 2) + '\n');
  }

  /**
   * Prints `items.map(toJson)` exactly as printJson would, one item at a time, so a long list
   * is never held whole (as objects, then as one string) in memory.
   */
  protected printJsonArray<T>(items: readonly T[], toJson: (item: T) => unknown): void {
    writeChunked(jsonArrayParts(items, toJson));
  }

  protected printJsonl(values: Iterable<unknown>): void {
    writeChunked(
      (function* () {
        for (const v of values) yield JSON.stringify(v) + '\n';
      })(),
    );
  }

  /** Warnings go to stderr so JSON on stdout stays a document alone. */
  protected printWarning(text: string): void {
    writeErr(`hookctl: warning: ${safeText(text)}\n`);
  }

  /** A note: something the user may not expect, not a problem. stderr, as warnings. */
  protected printNote(text: string): void {
    writeErr(`hookctl: note: ${text}\n`);
  }

  /**
   * Ends the command with this exit code. It sets process.exitCode and returns instead of calling
   * process.exit(): a large document still being written to a pipe would be cut off by an exit.
   */
  protected exitWith(code: number): void {
    if (code !== ExitCode.ok) process.exitCode = code;
  }

  override async catch(err: Error & { oclif?: { exit?: number }; code?: string }): Promise<void> {
    // this.exit() throws ExitError: it is a deliberate exit code, not an error to print.
    if (err instanceof ExitError) throw err;
    const e = toHookctlError(err, this.knownFlagNames());
    if (wantsJson(this.argv)) {
      const body: Record<string, unknown> = { code: e.code, message: e.message, exit: e.exit, ...e.data };
      writeOut(JSON.stringify({ error: body }) + '\n');
    } else {
      let text = `hookctl: ${e.message}\n`;
      for (const d of e.details) text += `  ${d}\n`;
      if (e.code === 'usage_error') text += `See: ${this.config.bin} ${this.id?.replaceAll(':', ' ') ?? ''} --help\n`;
      writeErr(safeText(text));
    }
    if (process.env.HOOKCTL_DEBUG && !(err instanceof HookctlError)) writeErr(`${err.stack}\n`);
    // Not process.exit(): what was just written must reach a slow pipe reader whole.
    process.exitCode = e.exit;
  }

  /** `--name` and `-c` of every flag this command takes, for "did you mean". */
  private knownFlagNames(): string[] {
    const ctor = this.constructor as typeof HookctlCommand;
    const names: string[] = [];
    for (const [name, flag] of Object.entries({ ...ctor.baseFlags, ...ctor.flags })) {
      names.push(`--${name}`);
      if ((flag as { allowNo?: boolean }).allowNo) names.push(`--no-${name}`);
      const char = (flag as { char?: string }).char;
      if (char) names.push(`-${char}`);
    }
    return names;
  }

  // oclif calls this only with enableJsonFlag; kept compact in case it ever does.
  override toErrorJson(err: unknown): unknown {
    const e = toHookctlError(err as Error);
    return { error: { code: e.code, message: e.message, exit: e.exit } };
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

/** What oclif's parse errors carry besides the message. */
type ParseErrorFields = { oclif?: { exit?: number }; code?: string; flags?: string[]; args?: { name?: string }[] };

/**
 * Maps anything thrown to a HookctlError: oclif parse errors are usage errors (exit 2), in one
 * line that keeps the reason (oclif puts it on the lines after the first). `knownFlags` feeds the
 * "did you mean" of an unknown flag.
 */
export function toHookctlError(err: Error & ParseErrorFields, knownFlags: string[] = []): HookctlError {
  if (err instanceof HookctlError) return err;
  const exit = err.oclif?.exit;
  if (exit !== undefined || err instanceof CLIError) {
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
