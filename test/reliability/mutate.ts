// A seeded mutator of declaration files for the fuzz test: the same seed and case number always
// give the same bytes, so a failing case is reproduced from the two numbers alone.
// Each case applies one operator chosen round-robin (so every operator meets every format on
// every run) plus up to two more chosen at random.

export type Syntax = 'toml' | 'json' | 'yaml';

/** mulberry32: small, fast, good enough to spread mutations; not for anything secret. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }
}

/** A per-case generator: independent of how many random numbers earlier cases used. */
export function caseRng(seed: number, format: string, index: number): Rng {
  let h = seed >>> 0;
  for (const c of `${format}#${index}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return new Rng(h);
}

type Mutator = (input: Buffer, rng: Rng, syntax: Syntax) => Buffer;

const utf8 = (s: string) => Buffer.from(s, 'utf8');

function insertAt(input: Buffer, at: number, piece: Buffer): Buffer {
  return Buffer.concat([input.subarray(0, at), piece, input.subarray(at)]);
}

/** Where values sit: `key = value` (TOML), `"key": value` (JSON), `key: value` (YAML). */
const VALUE_SITES: Record<Syntax, RegExp> = {
  toml: /^([ \t]*[A-Za-z0-9_."-]+[ \t]*=[ \t]*)(.*)$/gm,
  json: /("[A-Za-z0-9_]+"[ \t]*:[ \t]*)("(?:[^"\\\n]|\\.)*"|-?[0-9][0-9.eE+-]*|true|false|null|\[[^\]\n]*\]|\{[^}\n]*\})/g,
  yaml: /^([ \t]*(?:- )?[A-Za-z0-9_.-]+:[ \t]+)(.+)$/gm,
};

/** Replaces one value (chosen at random) with `make()`; the file unchanged when it has none. */
function replaceValue(input: Buffer, rng: Rng, syntax: Syntax, make: () => string): Buffer {
  const text = input.toString('latin1'); // byte-preserving: offsets stay byte offsets
  const sites = [...text.matchAll(VALUE_SITES[syntax])];
  if (sites.length === 0) return input;
  const site = rng.pick(sites);
  const start = site.index! + site[1]!.length;
  const end = start + site[2]!.length;
  return Buffer.concat([input.subarray(0, start), utf8(make()), input.subarray(end)]);
}

const WRONG_TYPES: Record<Syntax, string[]> = {
  toml: [
    '123',
    '-1',
    '1.5',
    'true',
    '[1, 2]',
    '["a", 1, { x = 1 }]',
    '{ a = 1 }',
    '"str"',
    '1979-05-27T07:32:00Z',
    'nan',
    '-inf',
    '[]',
    '{}',
    "'''\nmulti\n'''",
  ],
  json: ['123', 'true', 'null', '[]', '{}', '"str"', '[[1]]', '{"a":{"b":null}}', '-0', '1e5', '[null, {}, "x"]'],
  yaml: [
    '123',
    'true',
    'null',
    '[]',
    '{}',
    '~',
    '"str"',
    '[a, {b: c}]',
    '!!binary aGVsbG8=',
    '2001-12-14t21:59:43.10-05:00',
    '.inf',
    '0x1F',
    '|\n  block',
    '&x [*x]',
    '!custom tag',
    '? complex',
  ],
};

const HUGE_NUMBERS = [
  '1e309',
  '-1e309',
  '99999999999999999999999999999',
  '-9223372036854775809',
  '9223372036854775808',
  '2147483648',
  '-2147483649',
  '1' + '0'.repeat(400),
  '4.9e-325',
  '0.' + '0'.repeat(500) + '1',
];
const HUGE_TOML_ONLY = [
  '0x7fffffffffffffffff',
  '1_000_000_000_000_000_000',
  '0b' + '1'.repeat(80),
  '0o777777777777777777777777',
];

const WEIRD_DURATIONS = [
  '"99999999999h"',
  '"-1s"',
  '"1e400s"',
  '"9223372036854775807ns"',
  '"9223372036854775808ns"',
  '"1.5.5s"',
  '"s"',
  '""',
  '"1h1h1h"',
  '"0.0000000001ns"',
  '"+5s"',
  '"5 s"',
  '"١s"',
];

function nested(depth: number, syntax: Syntax, rng: Rng): string {
  if (syntax === 'json' && rng.chance(0.5)) return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  if (syntax === 'toml' && rng.chance(0.5)) return '{ a = '.repeat(depth) + '1' + ' }'.repeat(depth);
  if (syntax === 'yaml' && rng.chance(0.3)) return '{a: '.repeat(depth) + '1' + '}'.repeat(depth);
  return '['.repeat(depth) + ']'.repeat(depth);
}

const INVALID_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0xc3], // a lead byte with no continuation
  [0x80, 0x80],
  [0xc0, 0xaf], // overlong "/"
  [0xe0, 0x80, 0xaf], // overlong
  [0xed, 0xa0, 0x80], // a UTF-16 surrogate
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  [0xf8, 0x88, 0x80, 0x80, 0x80], // 5-byte form
  [0x00],
];

/** Keys that would pollute Object.prototype if a loader copied them with plain assignment. */
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'];

const STRUCTURAL: Record<Syntax, string> = {
  toml: '[]{}"\'=.,#\n\\ \t',
  json: '[]{}":,\\\n 0-e',
  yaml: '[]{}"\':,#-|>&*!%@?\n\t ',
};

export const MUTATORS: Record<string, Mutator> = {
  truncate: (input, rng) => input.subarray(0, rng.int(input.length + 1)),
  wrongType: (input, rng, syntax) => replaceValue(input, rng, syntax, () => rng.pick(WRONG_TYPES[syntax])),
  hugeNumber: (input, rng, syntax) =>
    replaceValue(input, rng, syntax, () =>
      rng.pick(syntax === 'toml' ? [...HUGE_NUMBERS, ...HUGE_TOML_ONLY] : HUGE_NUMBERS),
    ),
  weirdDuration: (input, rng, syntax) => {
    const text = input.toString('latin1');
    const timeout = /(timeout"?[ \t]*[:=][ \t]*)([^,\n}]+)/.exec(text);
    if (!timeout) return MUTATORS.hugeNumber!(input, rng, syntax);
    const start = timeout.index + timeout[1]!.length;
    const end = start + timeout[2]!.length;
    const value = rng.chance(0.3) ? rng.pick(HUGE_NUMBERS) : rng.pick(WEIRD_DURATIONS);
    return Buffer.concat([input.subarray(0, start), utf8(value), input.subarray(end)]);
  },
  deepNesting: (input, rng, syntax) => {
    // Past every parser's limit (512 in the cosh JSON reader, about 800 in the yaml package), and far
    // past it; payload fuzz covers 100k levels.
    const depth = rng.pick([64, 513, 2000, 20_000]);
    return replaceValue(input, rng, syntax, () => nested(depth, syntax, rng));
  },
  duplicateKey: (input, rng, syntax) => {
    const text = input.toString('latin1');
    const sites = [...text.matchAll(VALUE_SITES[syntax])];
    if (sites.length === 0) return input;
    const site = rng.pick(sites);
    const end = site.index! + site[0].length;
    const copy = syntax === 'json' ? `, ${site[0].trim().replace(/,$/, '')}` : `\n${site[0]}`;
    return insertAt(input, end, utf8(copy));
  },
  duplicateSection: (input, rng, syntax) => {
    const text = input.toString('latin1');
    const marker =
      syntax === 'toml'
        ? /^\[\[[^\n]*\]\]$/gm
        : syntax === 'yaml'
          ? /^[ \t]*- (?:name|event):[^\n]*$/gm
          : /\{\s*"(?:name|type)"/g;
    const starts = [...text.matchAll(marker)].map((m) => m.index!);
    if (starts.length === 0) return MUTATORS.splice!(input, rng, syntax);
    const from = rng.pick(starts);
    const to = starts.find((s) => s > from) ?? text.length;
    return insertAt(input, to, input.subarray(from, to));
  },
  invalidUtf8: (input, rng) => {
    let out = input;
    for (let i = 0, n = 1 + rng.int(4); i < n; i++)
      out = insertAt(out, rng.int(out.length + 1), Buffer.from(rng.pick(INVALID_UTF8)));
    return out;
  },
  binaryJunk: (input, rng) => {
    const kind = rng.int(4);
    if (kind === 0) return rng.bytes(rng.int(4096));
    if (kind === 1) return Buffer.alloc(1 + rng.int(64)); // NUL bytes only
    return insertAt(input, rng.int(input.length + 1), rng.bytes(1 + rng.int(256)));
  },
  byteFlip: (input, rng) => {
    const out = Buffer.from(input);
    if (out.length === 0) return out;
    for (let i = 0, n = 1 + rng.int(8); i < n; i++) out[rng.int(out.length)] ^= 1 << rng.int(8);
    return out;
  },
  byteInsertDelete: (input, rng, syntax) => {
    let out = input;
    for (let i = 0, n = 1 + rng.int(8); i < n; i++) {
      const at = rng.int(out.length + 1);
      if (rng.chance(0.5) && out.length > 0)
        out = Buffer.concat([out.subarray(0, at), out.subarray(at + 1 + rng.int(4))]);
      else out = insertAt(out, at, utf8(rng.pick([...STRUCTURAL[syntax]])));
    }
    return out;
  },
  hugeString: (input, rng, syntax) => {
    const size = rng.pick([65_536, 1_048_576]);
    const body = rng.chance(0.5) ? 'x'.repeat(size) : (syntax === 'yaml' ? 'é' : '\\u00e9').repeat(size / 8);
    return replaceValue(input, rng, syntax, () => `"${body}"`);
  },
  hostileKey: (input, rng, syntax) => {
    const key = rng.pick(HOSTILE_KEYS);
    const text = input.toString('latin1');
    const sites = [...text.matchAll(VALUE_SITES[syntax])];
    if (sites.length === 0) return input;
    const site = rng.pick(sites);
    const pollution =
      syntax === 'json' ? `{"polluted": "yes"}` : syntax === 'toml' ? `{ polluted = "yes" }` : `{polluted: "yes"}`;
    // Either rename the key of the site, or add `<key> = {polluted...}` beside it.
    const keyed = site[1]!.replace(/[A-Za-z0-9_.-]+(?="?[ \t]*[:=])/, key);
    const replacement = rng.chance(0.5)
      ? keyed + site[2]
      : site[0] + (syntax === 'json' ? `, "${key}": ${pollution}` : `\n${keyed}${pollution}`);
    return Buffer.concat([
      input.subarray(0, site.index!),
      utf8(replacement),
      input.subarray(site.index! + site[0].length),
    ]);
  },
  encoding: (input, rng) => {
    const kind = rng.int(6);
    if (kind === 0) return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), input]); // UTF-8 BOM
    if (kind === 1) return utf8(input.toString('latin1').replace(/\n/g, '\r\n'));
    if (kind === 2) return utf8(input.toString('latin1').replace(/\n/g, '\r')); // old Mac line ends
    if (kind === 3) return Buffer.from(input.toString('utf8'), 'utf16le');
    if (kind === 4) return Buffer.alloc(0);
    return utf8(' \n\t\n');
  },
  splice: (input, rng) => {
    if (input.length === 0) return input;
    const a = rng.int(input.length);
    const b = Math.min(input.length, a + 1 + rng.int(200));
    return insertAt(input, rng.int(input.length + 1), input.subarray(a, b));
  },
  yamlBombs: (input, rng, syntax) => {
    if (syntax !== 'yaml') return MUTATORS.deepNesting!(input, rng, syntax);
    const bombs = [
      // billion laughs through aliases
      'lol: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n',
      'hooks: *undefined_alias\n',
      'hooks: &h [*h]\n',
      '%YAML 9.9\n',
      '--- !!python/object/apply:os.system ["touch /tmp/hookctl-fuzz-pwned"]\n',
      'hooks: !!js/function "function(){}"\n',
      `${'  '.repeat(2000)}deep: 1\n`,
      '? [a, b]\n: c\n',
      'hooks:\n- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - x\n',
    ];
    const text = input.toString('latin1');
    const close = text.indexOf('\n---', 4);
    const at = close > 0 ? close + 1 : rng.int(input.length + 1);
    return insertAt(input, at, utf8(rng.pick(bombs)));
  },
};

export const MUTATOR_NAMES = Object.keys(MUTATORS);

export interface Mutant {
  bytes: Buffer;
  /** The operators applied, in order (for the failure report). */
  ops: string[];
}

/** Case `index` of `format` under `seed`: one round-robin operator, then up to two random ones. */
export function mutate(seedBytes: Buffer, syntax: Syntax, seed: number, format: string, index: number): Mutant {
  const rng = caseRng(seed, format, index);
  const ops = [MUTATOR_NAMES[index % MUTATOR_NAMES.length]!];
  for (let i = 0, extra = rng.int(3); i < extra; i++) ops.push(rng.pick(MUTATOR_NAMES));
  let bytes = seedBytes;
  for (const op of ops) bytes = MUTATORS[op]!(bytes, rng, syntax);
  return { bytes, ops };
}
