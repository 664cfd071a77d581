// What bin/run.js runs: oclif's execute(), by a narrower path for the common case.
//
// `hookctl hooks <command> [args]` loads the config and runs the command as oclif's main.run
// does (init hook, runCommand, finally hook), without main.run itself, which loads the help
// renderer to look for help flags. Everything else — `--help` anywhere, `--version`, a topic or
// an unknown command, no arguments — goes to oclif's own main.run unchanged. Errors end in
// oclif's handle(), as with execute().
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import type { Interfaces, Config as OclifConfig } from '@oclif/core';
import { deferUnusedOclifModules } from './lazy-oclif.js';
import { installResolveShortcut, knownRequires } from './resolve-shortcut.js';
import { wantsJson } from './argv.js';
import { closestNames, didYouMean, didYouMeanOf } from '../matching/suggest.js';
import { stdoutStreamUsed, writeErr, writeOut, writeToDescriptors } from './output.js';

const require = createRequire(import.meta.url);

export async function runCli(argv: string[], root: string): Promise<void> {
  deferUnusedOclifModules();
  let commandIds: string[] = [];
  writeToDescriptors();
  try {
    const distDir = realpathSync.native(join(root, 'dist'));
    installResolveShortcut(knownRequires(distDir));
    const { Config } = require('@oclif/core/config') as typeof import('@oclif/core/config');
    // hookctl has no plugins: the user's and dev plugin lists are not read.
    const logger = quietLogger(process.env);
    installPlatformShortcut();
    // The root's package.json handed over as read: oclif then skips its own search for the root
    // and its asynchronous read (about 1 ms).
    const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Interfaces.PJSON;
    const config = await withPlainIdOrder(() =>
      Config.load({ root, pjson, userPlugins: false, devPlugins: false, logger }),
    );
    // A command reloads the config from this instance and hands the instance itself to oclif's
    // setLogger, which then builds its debug logger unless it finds a `logger` here too.
    if (logger && !('logger' in config)) Object.defineProperty(config, 'logger', { value: logger });
    commandIds = config.commandIDs;
    const direct = directCommand(config, argv);
    if (direct) await runDirect(config, direct.id, direct.argv);
    else await (require('@oclif/core/run') as typeof import('@oclif/core/run')).run(argv, config);
    // As execute(): not awaited. Only where a stream may hold output (oclif's help and version
    // write through process.stdout; hookctl's commands write to the descriptor, src/cli/output.ts).
    if (!direct || stdoutStreamUsed())
      void (require('@oclif/core/flush') as typeof import('@oclif/core/flush')).flush();
  } catch (error) {
    if (reportUnknownCommand(error as Error, argv, commandIds)) return;
    await (require('@oclif/core/handle') as typeof import('@oclif/core/handle')).handle(error as Error);
  }
}

/**
 * oclif's "command x:y not found" is a usage error like any other: one line, or a JSON error
 * under --json, exit 2 (SPEC §6), with the closest commands (§7.1). Returns whether it handled
 * the error.
 */
export function reportUnknownCommand(error: Error, argv: string[], commandIds: string[] = []): boolean {
  const m = /^command (\S+) not found$/.exec(error?.message ?? '');
  if (!m) return false;
  // oclif joins every word before the first flag into the id (`hooks fier x` → hooks:fier:x):
  // the command is the longest run of leading words that is close to a known one.
  const words = m[1].split(':');
  const known = commandIds.map((id) => id.replaceAll(':', ' '));
  let message = `command "${words.join(' ')}" not found (see: hookctl --help)`;
  for (let k = words.length; k >= Math.min(2, words.length); k--) {
    const hint = didYouMean(words.slice(0, k).join(' '), known);
    if (hint === '') continue;
    message = `command "${words.slice(0, k).join(' ')}" not found${hint}`;
    break;
  }
  // A command typed without its topic (`help list`, `hookctl fire x`): the topic's command of
  // that name is offered (else the closest ones), as `hooks lst` offers `hooks list`.
  if (!message.includes('did you mean')) {
    const topics = [...new Set(known.filter((id) => id.includes(' ')).map((id) => id.split(' ')[0]!))];
    const topicless = topics.filter((t) => t !== words[0]);
    const prefixes = words.map((_, i) => words.slice(0, words.length - i).join(' '));
    const exact = (typed: string) => topicless.map((t) => `${t} ${typed}`).filter((id) => known.includes(id));
    const close = (typed: string) => topicless.flatMap((t) => closestNames(`${t} ${typed}`, known));
    for (const pick of [exact, close]) {
      const typed = prefixes.find((p) => pick(p).length > 0);
      if (typed === undefined) continue;
      message = `command "${typed}" not found${didYouMeanOf(pick(typed))}`;
      break;
    }
  }
  if (wantsJson(argv)) {
    writeOut(JSON.stringify({ error: { code: 'unknown_command', message, exit: 2 } }) + '\n');
  } else writeErr(`hookctl: ${message}\n`);
  process.exitCode = 2;
  return true;
}

/** What directCommand needs of oclif's Config. */
export interface CommandLookup {
  topicSeparator: string;
  commandIDs: string[];
  findCommand(id: string): unknown;
  pjson: { oclif: { additionalHelpFlags?: string[] } };
}

/**
 * `topic command [args]` naming a command exactly, with no help flag: the command id and its
 * argv. Undefined sends the invocation to oclif's main.run.
 */
export function directCommand(config: CommandLookup, argv: string[]): { id: string; argv: string[] } | undefined {
  const [topic, name] = argv;
  if (config.topicSeparator !== ' ' || topic === undefined || name === undefined) return undefined;
  if (!isWord(topic) || !isWord(name)) return undefined;
  const id = `${topic}:${name}`;
  if (!config.findCommand(id)) return undefined;
  if (config.commandIDs.some((other) => other.startsWith(`${id}:`))) return undefined; // a deeper id could match
  const rest = argv.slice(2);
  const helpFlags = ['--help', ...(config.pjson.oclif.additionalHelpFlags ?? [])];
  for (const arg of rest) {
    if (arg === '--') break;
    if (helpFlags.includes(arg)) return undefined;
  }
  return { id, argv: rest };
}

/**
 * oclif logs through the `debug` package, which prints only when DEBUG is set. Without DEBUG
 * its logger is replaced by one that does nothing, so `debug` is not even loaded; with DEBUG,
 * oclif's own logger is used as always.
 */
export function quietLogger(env: NodeJS.ProcessEnv, namespace = 'oclif'): Interfaces.Logger | undefined {
  if (env.DEBUG) return undefined;
  const ignore = () => {};
  return {
    namespace,
    child: (ns: string, delimiter?: string) => quietLogger(env, `${namespace}${delimiter ?? ':'}${ns}`)!,
    debug: ignore,
    error: ignore,
    info: ignore,
    trace: ignore,
    warn: ignore,
  };
}

function isWord(arg: string): boolean {
  return arg !== '' && !arg.startsWith('-') && !arg.includes(':');
}

/** main.run's steps for a found command. */
async function runDirect(config: OclifConfig, id: string, argv: string[]): Promise<void> {
  const { Performance } = require('@oclif/core/performance') as typeof import('@oclif/core/performance');
  const command = config.findCommand(id)!;
  await config.runHook('init', { argv, id });
  let error: Error | undefined;
  try {
    await config.runCommand(id, argv, command);
  } catch (e) {
    error = e as Error;
    throw e;
  } finally {
    await Performance.collect();
    Performance.debug();
    await config.runHook('finally', { argv, Command: command, error, id });
  }
}

// Command ids made of these characters sort the same by String#localeCompare (ICU's root
// collation) as by code unit; checked on 200,000 random pairs in test/unit/cli-run.test.ts.
const PLAIN_ID = /^[a-z:-]*$/;

/**
 * Runs `load` (oclif's Config.load) with String#localeCompare answering plain command ids by code
 * unit. oclif sorts the command ids with localeCompare while it loads, and the first call
 * initialises ICU's collator: about 7 ms of every run, for eleven ids (docs/PERFORMANCE.md). Any
 * other string, or a call with locales or options, goes to the real localeCompare, which is back in
 * place as soon as `load` settles.
 */
export async function withPlainIdOrder<T>(load: () => Promise<T>): Promise<T> {
  const localeCompare = String.prototype.localeCompare;
  String.prototype.localeCompare = function (this: string, that: string, ...rest: unknown[]): number {
    if (rest.length === 0 && typeof that === 'string' && PLAIN_ID.test(this) && PLAIN_ID.test(that)) {
      return this < that ? -1 : this > that ? 1 : 0;
    }
    return Reflect.apply(localeCompare, this, [that, ...rest]) as number;
  };
  try {
    return await load();
  } finally {
    String.prototype.localeCompare = localeCompare;
  }
}

/** oclif's `util/os.js`, which is not among the package's exports. */
export function oclifOsModulePath(): string {
  return join(dirname(require.resolve('@oclif/core/config')), '..', 'util', 'os.js');
}

/** The installed stand-ins, so that a second install does not wrap the first. */
const shortcuts = new WeakSet<() => Promise<string>>();

/**
 * oclif's Config.load asks `getPlatform()`, which imports `wsl-utils` (six ES modules, and is-wsl's
 * probing) to tell WSL from Linux: 8–9 ms of every run (docs/PERFORMANCE.md). Where is-wsl's own
 * tests all say "not WSL" (not Linux; or Linux with no "microsoft" in the kernel release or
 * /proc/version and neither WSL path present), the answer is `os.platform()`, as oclif's would be,
 * without the import; on any doubt, oclif's own function answers. config.js reads the export at
 * each call, so replacing it works (test/unit/cli-run.test.ts checks both against oclif's files).
 */
export function installPlatformShortcut(): void {
  const os = require(oclifOsModulePath()) as { getPlatform?: () => Promise<string> };
  const original = os.getPlatform;
  if (typeof original !== 'function' || shortcuts.has(original)) return;
  const shortcut = async (): Promise<string> => (isCertainlyNotWsl() ? platform() : original());
  shortcuts.add(shortcut);
  os.getPlatform = shortcut;
}

/** Whether is-wsl would say "not WSL" for sure (a failure to read /proc/version counts as a doubt). */
export function isCertainlyNotWsl(): boolean {
  // The same tests as is-wsl, in its order; where it would return false, this returns true.
  if (process.platform !== 'linux') return true; // is-wsl's first test
  if (release().toLowerCase().includes('microsoft')) return false;
  try {
    if (readFileSync('/proc/version', 'utf8').toLowerCase().includes('microsoft')) return false;
  } catch {
    return false;
  }
  return !existsSync('/proc/sys/fs/binfmt_misc/WSLInterop') && !existsSync('/run/WSL');
}
