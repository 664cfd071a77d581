// Makes the fast path's flag table (src/cli/fast-argv.ts) from oclif command classes: the build
// runs it over the built commands (dist/fast-flags.json), the tests over the sources. oclif's
// manifest lacks what a flag's value is parsed to, so each option flag's own parse function is
// asked: a flag whose parse is neither the identity nor oclif's integer, or that reads the
// environment, has aliases, a computed default or anything else the fast parser does not
// implement, leaves its whole command to oclif.
import type { FastCommand, FastFlag, FlagTable } from './fast-argv.js';

/** What is read of an oclif flag definition. */
interface OclifFlag {
  type: 'boolean' | 'option';
  char?: string;
  allowNo?: boolean;
  multiple?: boolean;
  options?: readonly string[];
  default?: unknown;
  exclusive?: string[];
  dependsOn?: string[];
  min?: number;
  max?: number;
  parse?: (input: unknown, context: unknown, options: unknown) => Promise<unknown>;
  [key: string]: unknown;
}

interface OclifCommandClass {
  baseFlags?: Record<string, unknown>;
  flags?: Record<string, unknown>;
  args?: Record<string, unknown>;
  strict?: boolean;
}

/** Properties that change parsing in ways the fast parser does not implement. */
const UNSUPPORTED = [
  'env',
  'aliases',
  'charAliases',
  'delimiter',
  'multipleNonGreedy',
  'allowStdin',
  'relationships',
  'exactlyOne',
  'atLeastOne',
  'combinable',
  'deprecated',
  'deprecateAliases',
];

/** The table's entry for one command, or undefined: the command is always oclif's. */
export async function fastCommand(command: OclifCommandClass): Promise<FastCommand | undefined> {
  if (command.strict === false) return undefined;
  const flags: Record<string, FastFlag> = {};
  for (const [name, raw] of Object.entries({ ...command.baseFlags, ...command.flags })) {
    const flag = raw as OclifFlag;
    if (UNSUPPORTED.some((key) => flag[key] !== undefined && flag[key] !== false)) return undefined;
    if (flag.char === 'h') return undefined; // -h is help (package.json additionalHelpFlags)
    const entry: FastFlag = { type: flag.type };
    if (flag.char !== undefined) entry.char = flag.char;
    if (flag.multiple) entry.multiple = true;
    if (flag.exclusive?.length) entry.exclusive = [...flag.exclusive];
    if (flag.dependsOn?.length) entry.dependsOn = [...flag.dependsOn];
    if (flag.default !== undefined) {
      if (typeof flag.default !== 'string' && typeof flag.default !== 'boolean' && typeof flag.default !== 'number')
        return undefined;
      entry.default = flag.default;
    }
    if (flag.type === 'boolean') {
      if (flag.allowNo) entry.allowNo = true;
      if (flag.parse !== undefined && (await flag.parse(true, {}, flag)) !== true) return undefined;
    } else if (flag.type === 'option') {
      const kind = await valueKind(flag);
      if (kind === undefined) return undefined;
      entry.kind = kind;
      if (kind === 'integer') {
        if (flag.min !== undefined) entry.min = flag.min;
        if (flag.max !== undefined) entry.max = flag.max;
      }
      if (flag.options !== undefined) entry.options = [...flag.options];
    } else return undefined;
    flags[name] = entry;
  }
  const args: FastCommand['args'] = [];
  for (const [name, raw] of Object.entries(command.args ?? {})) {
    const arg = raw as OclifFlag;
    if (arg.options !== undefined || arg.default !== undefined || arg.multiple || arg.ignoreStdin !== true)
      return undefined;
    if (arg.parse !== undefined && (await arg.parse('x', {}, arg)) !== 'x') return undefined;
    args.push({ name, required: arg.required === true });
  }
  return { flags, args };
}

/** What an option flag's parse makes of a value: the value itself, oclif's integer, or unknown. */
async function valueKind(flag: OclifFlag): Promise<'string' | 'integer' | undefined> {
  if (flag.parse === undefined) return 'string';
  const probe = async (input: string): Promise<{ value: unknown } | 'threw'> => {
    try {
      return { value: await flag.parse!(input, {}, flag) };
    } catch {
      return 'threw';
    }
  };
  const samples = ['x', '7', '-3', 'a b', '07'];
  const answers = await Promise.all(samples.map(probe));
  if (answers.every((a, k) => a !== 'threw' && a.value === samples[k])) return 'string';
  const [word, seven] = answers;
  const within = (n: number) => (flag.min === undefined || n >= flag.min) && (flag.max === undefined || n <= flag.max);
  if (word === 'threw' && seven !== 'threw' && seven!.value === 7 && within(7)) return 'integer';
  return undefined;
}

/** The table of the commands named (`topic:name` → class). */
export async function flagTable(bin: string, commands: Record<string, OclifCommandClass>): Promise<FlagTable> {
  const table: FlagTable = { bin, commands: {} };
  for (const [id, command] of Object.entries(commands)) {
    const entry = await fastCommand(command);
    if (entry !== undefined) table.commands[id] = entry;
  }
  return table;
}
