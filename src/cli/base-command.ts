// The base of every hookctl command: the shared flags of SPEC §6, output format selection, and
// one error path. Errors become one short line on stderr, or `{error:{code,message,exit}}` on
// stdout under --json / -o json, with the same exit code either way (oclif's own JSON error
// would dump its whole config).
// oclif is imported by subpath, never from '@oclif/core' itself: the package index checks the
// Node version with semver and evaluates every export (help, ux, …), about a tenth of a command's
// start-up. Commands take Flags and Args from here. (The build turns these imports into plain
// requires of oclif's CommonJS files: scripts/build.mjs.)
import type { Interfaces } from '@oclif/core';
import * as Args from '@oclif/core/args';
import { Command } from '@oclif/core/command';
import { CLIError, ExitError } from '@oclif/core/errors';
import * as Flags from '@oclif/core/flags';
import { dialects } from '../dialects/registry.js';
import type { Locations } from '../paths.js';
import type { Colour } from './colour.js';
import * as io from './command-io.js';
import type { OutputFormat, ParseErrorFields } from './command-io.js';
import type { HookctlError } from '../errors.js';

// The oclif-free parts, here as before for the modules that import them from the base command.
export { checkFolder, configureDialects, jsonArrayParts, parseErrorText } from './command-io.js';
export type { OutputFormat } from './command-io.js';

export { Args, Flags };

// Every positional argument is declared with `ignoreStdin: true`. oclif otherwise reads a missing
// positional from stdin when stdin is not a terminal (waiting up to 10 ms for it): `echo '{}' |
// hookctl hooks validate` would validate a file named `{}`, and `hooks fire` reads its payload from
// stdin itself (test/e2e/cli-conventions.test.ts).

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
    const output = parsed.raw.findLast((t) => t.type === 'flag' && t.flag === 'output');
    io.checkParsed(parsed.flags as Record<string, unknown>, output?.input);
    return parsed;
  }

  /** What the command bodies shared with the fast path (src/cli/bodies/) are given. */
  protected io(): io.CommandIO {
    return io.commandIO(this.config.root, () => this.config.version);
  }

  protected outputFormat(flags: BaseFlags): OutputFormat {
    return io.outputFormat(flags);
  }

  protected locations(flags: BaseFlags): Locations {
    return io.locationsOf(flags, this.config.root);
  }

  protected colour(flags: BaseFlags): Colour {
    return io.colourOf(flags);
  }

  /** Writes text to stdout, newline-terminated. */
  protected print(text: string): void {
    io.print(text);
  }

  protected printJson(value: unknown): void {
    io.printJson(value);
  }

  /**
   * Prints `items.map(toJson)` exactly as printJson would, one item at a time, so a long list
   * is never held whole (as objects, then as one string) in memory.
   */
  protected printJsonArray<T>(items: readonly T[], toJson: (item: T) => unknown): void {
    io.printJsonArray(items, toJson);
  }

  protected printJsonl(values: Iterable<unknown>): void {
    io.printJsonl(values);
  }

  /** Warnings go to stderr so JSON on stdout stays a document alone. */
  protected printWarning(text: string): void {
    io.printWarning(text);
  }

  /** A note: something the user may not expect, not a problem. stderr, as warnings. */
  protected printNote(text: string): void {
    io.printNote(text);
  }

  /** Ends the command with this exit code (process.exitCode: see src/cli/command-io.ts). */
  protected exitWith(code: number): void {
    io.exitWith(code);
  }

  override async catch(err: Error & { oclif?: { exit?: number }; code?: string }): Promise<void> {
    // this.exit() throws ExitError: it is a deliberate exit code, not an error to print.
    if (err instanceof ExitError) throw err;
    const ctor = this.constructor as typeof HookctlCommand;
    io.reportError(err, {
      argv: this.argv,
      knownFlags: io.flagNames({ ...ctor.baseFlags, ...ctor.flags }),
      bin: this.config.bin,
      id: this.id,
      isCliError,
    });
  }

  // oclif calls this only with enableJsonFlag; kept compact in case it ever does.
  override toErrorJson(err: unknown): unknown {
    const e = toHookctlError(err as Error);
    return { error: { code: e.code, message: e.message, exit: e.exit } };
  }
}

const isCliError = (err: Error): boolean => err instanceof CLIError;

/**
 * Maps anything thrown to a HookctlError (src/cli/command-io.ts), oclif's CLI errors counted as
 * usage errors.
 */
export function toHookctlError(err: Error & ParseErrorFields, knownFlags: string[] = []): HookctlError {
  return io.toHookctlError(err, knownFlags, isCliError);
}
