// The fast path's argv parser (docs/PERFORMANCE.md, issue 25): `hooks list|info|runs|events`
// parsed without oclif, from a flag table the build makes of the oclif command classes
// (src/cli/flag-table.ts, dist/fast-flags.json). It answers only where it is certain to give
// oclif's own answer; anything else — help, --version, an unknown or repeated flag, a flag form
// it does not implement, a value oclif would reject, a flag oclif reads from the environment —
// is a hand-over (undefined): src/cli/boot.ts then runs the oclif path, before anything is printed.
// test/unit/fast-argv.test.ts holds it against oclif's parser on generated argv.
//
// No imports: it is part of dist/cli/boot.js, which bin/run.js loads before anything else.

/** One flag as the table holds it. */
export interface FastFlag {
  type: 'boolean' | 'option';
  char?: string;
  allowNo?: boolean;
  multiple?: boolean;
  /** What the value is parsed to: `string` (as typed) or `integer` (oclif's Flags.integer). */
  kind?: 'string' | 'integer';
  min?: number;
  max?: number;
  options?: string[];
  default?: string | boolean | number;
  exclusive?: string[];
  dependsOn?: string[];
}

export interface FastCommand {
  flags: Record<string, FastFlag>;
  args: { name: string; required: boolean }[];
}

/** dist/fast-flags.json. */
export interface FlagTable {
  bin: string;
  commands: Record<string, FastCommand>;
}

/** A parse the fast path is certain of. */
export interface FastParse {
  id: string;
  /** argv after the command's words (oclif's `this.argv`). */
  argv: string[];
  flags: Record<string, unknown>;
  args: Record<string, string>;
  /** The text of the last -o/--output given, for the --json check (src/cli/command-io.ts). */
  lastOutput?: string;
}

/**
 * The commands the fast path runs. The build makes the flag table of these (scripts/build.mjs);
 * an invocation of any other is handed over without reading the table, so the fast path costs
 * the commands it does not run next to nothing.
 */
export const FAST_COMMAND_IDS: readonly string[] = ['hooks:list', 'hooks:info', 'hooks:runs', 'hooks:events'];

/** Whether argv names one of FAST_COMMAND_IDS (the parse may still hand over). */
export function namesFastCommand(argv: readonly string[]): boolean {
  return argv[0] === 'hooks' && argv[1] !== undefined && FAST_COMMAND_IDS.includes(`hooks:${argv[1]}`);
}

/** Variables that change what oclif prints (its debug output), or that turn the fast path off. */
export function handOverForEnv(env: NodeJS.ProcessEnv): boolean {
  for (const key of Object.keys(env)) {
    if (env[key] === undefined || env[key] === '') continue;
    if (key === 'DEBUG' || key === 'HOOKCTL_DEBUG' || key === 'HOOKCTL_NO_FAST_PATH' || key.startsWith('OCLIF_'))
      return true;
  }
  return false;
}

/** The parse of `argv` (without node and the script), or undefined: hand over to oclif. */
export function fastParse(table: FlagTable, argv: readonly string[]): FastParse | undefined {
  if (argv[0] !== 'hooks' || argv[1] === undefined) return undefined;
  const id = `hooks:${argv[1]}`;
  const command = Object.hasOwn(table.commands, id) ? table.commands[id] : undefined;
  if (command === undefined) return undefined;
  const rest = argv.slice(2);
  const byChar = new Map<string, string>();
  for (const [name, f] of Object.entries(command.flags)) if (f.char !== undefined) byChar.set(f.char, name);
  const given = new Map<string, string[] | boolean>();
  const positionals: string[] = [];
  let lastOutput: string | undefined;
  // oclif gives every later word that is not a flag to the last option flag read, when it is
  // `multiple`: such a word is a hand-over.
  let lastOptionMultiple = false;
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    if (!word.startsWith('-')) {
      if (lastOptionMultiple) return undefined;
      positionals.push(word);
      continue;
    }
    if (word === '-' || word === '--') return undefined;
    let name: string | undefined;
    let inline: string | undefined;
    let negated = false;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const bare = eq === -1 ? word.slice(2) : word.slice(2, eq);
      if (Object.hasOwn(command.flags, bare)) name = bare;
      else if (bare.startsWith('no-') && command.flags[bare.slice(3)]?.allowNo === true) {
        name = bare.slice(3);
        negated = true;
      }
      if (name === undefined) return undefined; // unknown: oclif's error (or help, --version)
      if (eq !== -1) inline = word.slice(eq + 1);
    } else {
      if (word.length !== 2) return undefined; // -ojson, -o=json, bundled short flags
      name = byChar.get(word[1]!);
      if (name === undefined) return undefined; // -h and unknown short flags
    }
    const flag = command.flags[name]!;
    if (flag.type === 'boolean') {
      if (inline !== undefined || given.has(name)) return undefined;
      given.set(name, !negated);
      continue;
    }
    if (negated) return undefined;
    const value = inline ?? rest[++i];
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    if (inline === undefined && isFlagWord(command, byChar, value)) return undefined;
    const values = given.get(name);
    if (values !== undefined && !flag.multiple) return undefined; // "can only be specified once"
    if (flag.options !== undefined && !flag.options.includes(value)) return undefined;
    if (flag.kind === 'integer' && !integerWithin(value, flag)) return undefined;
    if (flag.kind !== 'string' && flag.kind !== 'integer') return undefined;
    given.set(name, [...((values as string[] | undefined) ?? []), value]);
    lastOptionMultiple = flag.multiple === true;
    if (name === 'output') lastOutput = value;
  }
  if (positionals.length > command.args.length) return undefined; // unexpected arguments
  const args: Record<string, string> = {};
  for (const [k, arg] of command.args.entries()) {
    const value = positionals[k];
    if (value === undefined) {
      if (arg.required) return undefined;
      continue;
    }
    args[arg.name] = value;
  }
  for (const [name] of given) {
    const flag = command.flags[name]!;
    if (flag.exclusive?.some((other) => given.has(other))) return undefined;
    if (flag.dependsOn?.some((other) => !given.has(other))) return undefined;
  }
  const flags: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(command.flags)) {
    const value = given.get(name);
    if (value === undefined) {
      if (flag.default !== undefined) flags[name] = flag.default;
    } else if (typeof value === 'boolean') flags[name] = value;
    else if (flag.multiple) flags[name] = value.map((v) => parsed(flag, v));
    else flags[name] = parsed(flag, value[value.length - 1]!);
  }
  return { id, argv: rest, flags, args, lastOutput };
}

/** Whether oclif would take `word` for a flag of the command (so not for a value). */
function isFlagWord(command: FastCommand, byChar: Map<string, string>, word: string): boolean {
  if (word.startsWith('--')) return true;
  return word.startsWith('-') && byChar.has(word[1] ?? '');
}

function integerWithin(value: string, flag: FastFlag): boolean {
  if (!/^-?\d+$/.test(value)) return false;
  const n = Number.parseInt(value, 10);
  if (!Number.isSafeInteger(n)) return false;
  return (flag.min === undefined || n >= flag.min) && (flag.max === undefined || n <= flag.max);
}

function parsed(flag: FastFlag, value: string): string | number {
  return flag.kind === 'integer' ? Number.parseInt(value, 10) : value;
}
