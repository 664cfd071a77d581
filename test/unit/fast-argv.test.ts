// The fast path's parser (src/cli/fast-argv.ts) against oclif's own parser, on argv generated from
// each fast command's flags: every flag form, valid and invalid values, repeats, positionals,
// help and unknown words. Where the fast parser answers, oclif must parse the same argv without
// error to the same flags and args; everywhere else it hands over. Never a different answer.
import { parse as oclifParse } from '@oclif/core/parser';
import { describe, expect, it } from 'vitest';
import { FAST_COMMAND_IDS, fastParse, namesFastCommand, type FlagTable } from '../../src/cli/fast-argv.js';
import { fastCommand, flagTable } from '../../src/cli/flag-table.js';
import HooksEvents from '../../src/commands/hooks/events.js';
import HooksInfo from '../../src/commands/hooks/info.js';
import HooksList from '../../src/commands/hooks/list.js';
import HooksRuns from '../../src/commands/hooks/runs.js';
import { Flags } from '../../src/cli/base-command.js';

const COMMANDS = {
  'hooks:list': HooksList,
  'hooks:info': HooksInfo,
  'hooks:runs': HooksRuns,
  'hooks:events': HooksEvents,
};

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type AnyFlag = { type: string; char?: string; allowNo?: boolean; options?: readonly string[] };

/** The words argv is made of, for one command. */
function vocabulary(flags: Record<string, AnyFlag>): string[][] {
  const words: string[][] = [
    ['x'],
    ['tool.pre_call'],
    ['-h'],
    ['--help'],
    ['--'],
    ['-'],
    ['--nope'],
    ['-z'],
    ['--version'],
  ];
  const values = ['a', '7', '0', '-3', '07', '', 'json', '--json', '-o', '1.5', 'x y'];
  for (const [name, flag] of Object.entries(flags)) {
    const forms = [`--${name}`];
    if (flag.char) forms.push(`-${flag.char}`);
    if (flag.type === 'boolean') {
      words.push(...forms.map((f) => [f]));
      words.push([`--${name}=true`]);
      if (flag.allowNo) words.push([`--no-${name}`]);
      else words.push([`--no-${name}`]);
      continue;
    }
    const vals = [...(flag.options ?? []).slice(0, 3), ...values];
    for (const form of forms) {
      for (const v of vals) words.push([form, v]);
      words.push([`${form}=${vals[0]}`]);
      words.push([form]); // no value
      if (form.length === 2) words.push([`${form}${vals[0]}`]);
    }
  }
  return words;
}

function sampleArgv(next: () => number, words: string[][]): string[] {
  const argv: string[] = [];
  const n = Math.floor(next() * 5);
  for (let i = 0; i < n; i++) argv.push(...words[Math.floor(next() * words.length)]!);
  return argv;
}

type CommandClass = { baseFlags: object; flags: object; args?: object; strict?: boolean };

async function oclif(command: CommandClass, argv: string[]) {
  try {
    const out = await oclifParse(argv, {
      flags: { ...command.baseFlags, ...command.flags },
      args: command.args ?? {},
      strict: command.strict,
      context: undefined,
    } as Parameters<typeof oclifParse>[1]);
    return { flags: out.flags, args: out.args };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe('the fast parser against oclif', () => {
  it('names the four read commands, and only them, before any table is read', () => {
    expect([...FAST_COMMAND_IDS].sort()).toEqual(Object.keys(COMMANDS).sort());
    for (const id of Object.keys(COMMANDS)) expect(namesFastCommand(id.split(':'))).toBe(true);
    for (const argv of [
      [],
      ['hooks'],
      ['hooks', 'sessions'],
      ['hooks', 'lst'],
      ['hooks:list'],
      ['list'],
      ['hooks', ''],
    ])
      expect(namesFastCommand(argv)).toBe(false);
    expect(namesFastCommand(['hooks', 'list', '--help'])).toBe(true); // the parse then hands it over
  });

  it('is made for all four read commands from their classes', async () => {
    const table = await flagTable('hookctl', COMMANDS);
    expect(Object.keys(table.commands).sort()).toEqual(['hooks:events', 'hooks:info', 'hooks:list', 'hooks:runs']);
  });

  it('leaves a command to oclif when a flag does what the table cannot say', async () => {
    const base = { baseFlags: {}, args: {} };
    expect(await fastCommand({ ...base, flags: { a: Flags.string({ env: 'A' }) } })).toBeUndefined();
    expect(
      await fastCommand({ ...base, flags: { a: Flags.string({ parse: async (s) => s.toUpperCase() }) } }),
    ).toBeUndefined();
    expect(await fastCommand({ ...base, flags: { a: Flags.string({ default: async () => 'x' }) } })).toBeUndefined();
    expect(await fastCommand({ ...base, flags: { a: Flags.string({ aliases: ['b'] }) } })).toBeUndefined();
    expect(
      await fastCommand({ ...base, flags: { a: Flags.string({ multiple: true, delimiter: ',' }) } }),
    ).toBeUndefined();
    expect(await fastCommand({ ...base, flags: { a: Flags.integer({ min: 1 }) } })).toEqual({
      flags: { a: { type: 'option', kind: 'integer', min: 1 } },
      args: [],
    });
  });

  it('same flags and args as oclif, or a hand-over, on 6,000 generated argv', async () => {
    const table: FlagTable = await flagTable('hookctl', COMMANDS);
    const next = random(25);
    let answered = 0;
    let handedOver = 0;
    for (const [id, command] of Object.entries(COMMANDS)) {
      const words = vocabulary({ ...command.baseFlags, ...command.flags } as Record<string, AnyFlag>);
      for (let i = 0; i < 1500; i++) {
        const argv = sampleArgv(next, words);
        const fast = fastParse(table, ['hooks', id.split(':')[1]!, ...argv]);
        if (fast === undefined) {
          handedOver++;
          continue;
        }
        answered++;
        const theirs = await oclif(command as CommandClass, argv);
        expect(theirs, `${id} ${JSON.stringify(argv)}`).toEqual({ flags: fast.flags, args: fast.args });
      }
    }
    // The generator reaches both answers often.
    expect(answered).toBeGreaterThan(1000);
    expect(handedOver).toBeGreaterThan(1000);
  });

  it('answers the common forms itself', () => {
    const table: FlagTable = {
      bin: 'hookctl',
      commands: {
        'hooks:runs': {
          flags: {
            output: { type: 'option', kind: 'string', char: 'o', options: ['human', 'json'], default: 'human' },
            last: { type: 'option', kind: 'integer', min: 1 },
            color: { type: 'boolean', allowNo: true },
          },
          args: [],
        },
      },
    };
    expect(fastParse(table, ['hooks', 'runs', '-o', 'json', '--last=3', '--no-color'])).toEqual({
      id: 'hooks:runs',
      argv: ['-o', 'json', '--last=3', '--no-color'],
      flags: { output: 'json', last: 3, color: false },
      args: {},
      lastOutput: 'json',
    });
    expect(fastParse(table, ['hooks', 'runs', '--last', '0'])).toBeUndefined();
    expect(fastParse(table, ['hooks', 'runs', '--help'])).toBeUndefined();
    expect(fastParse(table, ['hooks', 'fire'])).toBeUndefined();
    expect(fastParse(table, ['hooks', 'constructor'])).toBeUndefined();
  });
});
