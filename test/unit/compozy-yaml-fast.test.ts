import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { readFastYaml } from '../../src/declarations/yaml-fast.js';
import { splitFrontMatter, yamlLocator } from '../../src/declarations/frontmatter.js';
import type { PathSeg } from '../../src/declarations/source-file.js';

/** Every path (keys and list indexes) inside a parsed value. */
function paths(value: unknown, prefix: PathSeg[] = []): PathSeg[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...prefix, i], ...paths(v, [...prefix, i])]);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
  }
  return [];
}

/** The fast reader must agree with the `yaml` package on values and on positions. */
function expectSameAsYaml(text: string): void {
  const fast = readFastYaml(text, 2);
  expect(fast, `fast reader gave up on:\n${text}`).toBeDefined();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  expect(doc.errors).toEqual([]);
  const full = doc.toJS() ?? {};
  expect(fast!.data).toEqual(full);
  const locate = yamlLocator(doc, (offset) => {
    const p = lineCounter.linePos(offset);
    return { line: p.line + 1, column: p.col };
  });
  for (const path of paths(full)) expect(fast!.locate(path), JSON.stringify(path)).toEqual(locate(path));
}

const SAME = [
  'name: x\n',
  '',
  '# only a comment\n',
  'name: combined\ndescription: Skill with MCP and hook metadata\nmetadata:\n  compozy:\n    mcp_servers:\n      - name: git\n        command: uvx\n        args:\n          - mcp-server-git\n        env:\n          REPO_ROOT: "${REPO_ROOT}"\n    hooks:\n      - event: session.post_stop\n        command: /usr/bin/env\n        args:\n          - bash\n          - -lc\n          - echo cleanup\n        timeout: 30s\n        env:\n          PHASE: stop\n',
  'name: reviewer\nprovider: codex\nhooks:\n  - name: add-review-context\n    event: prompt.post_assemble\n    mode: sync\n    timeout: 5s\n    command: /usr/bin/env\n    args: ["node", "./hooks/add-review-context.mjs"]\n    matcher:\n      input_class: user\n',
  'name: pr\ncategory_path:\n  - CompozyOS\npermissions: approve-all\nmodel: gpt-5.6-terra\nreasoning_effort: medium\n',
  "category_path: [CompozyOS]\nlist: []\nmixed: [a, \"b c\", 'd''e', 1, true, null, 1.5]\n",
  'hooks:\n- event: a\n  command: b\n- event: c\nnext: 1\n',
  'a:\n  b:\n    c:\n      d: deep\n  e: 1\nf: 2\n',
  'nums: [0, -1, +2, 3.5, .5, 5., 1e3, -2E-2, 0x1F, 0o17, 007, .inf, -.Inf, .nan]\n',
  'bools: [true, True, TRUE, false, False, FALSE]\nnulls: [~, null, Null, NULL]\nempty:\nstrings: [yes, no, on, off, 1_000, 0b101, 12:30, 2001-12-14]\n',
  'q1: "tab\\tnew\\nline \\"q\\" \\\\ \\u00e9 \\x41 \\U0001F600"\nq2: \'it\'\'s # not a comment\'\nq3: "# not a comment" # a comment\n',
  'plain: it\'s a "quote" inside\nhash: a#b c # cut here\nurl: https://example.com/a?b=c#frag\ncolon: a:b\nbrackets: a [b] {c}, d\n',
  "description: Operate CompozyOS. Use when working with sessions, agents, tools. Don't use for unrelated projects.\n",
  'key with spaces: v\n"quoted key": 1\n\'single\': 2\n',
  'list:\n  -\n    a: 1\n  -\n  - x\n',
  'args:\n  - -c\n  - echo ready\n  - "--flag=1"\n  - -x # comment\n',
  'crlf: yes\r\nsecond:\r\n  - a\r\n',
  'trailing: value   \nspaces:    padded   # c\n',
  'emoji: ☺ é 😀\n',
  // Only spaces and tabs are white space to YAML: not NBSP, BOM or the line separators.
  'a: x\u00a0\nb: \u00a0y\nk\u00a0: v\nl: [x\u00a0, \u00a0y]\nbom: x\ufeff\nls: x\u2028\n',
  'big: 12345678901234\nneg: -0\nfloaty: 1.0\n',
  // Literal block scalars: clip and strip, blank lines inside and at the end, deeper lines,
  // content that looks like a comment or structure, a block at the end of the text, CRLF.
  'a: |\n  block\n',
  'a: |\n  text',
  'a: |-\n  text',
  'a: |-\n  text\n',
  'a: |\n',
  'a: |',
  'a: |-\n',
  'a: |\nb: 1\n',
  'a: |\n\n\nb: 1\n',
  'a: |\n\n  x\n\n  y\n\n\nb: 1\n',
  'a: |-\n\n  x\n\n  y\n\n\nb: 1\n',
  'a: |\n  x\n    more\n  y\n',
  'a: |\n  # not a comment\n  x\n',
  'a: |\n  x\n# a comment\nb: 1\n',
  'a: |\n    x\n  # a comment\nb: 1\n',
  'a: |\n  x\n   \nb: 1\n',
  'a: |\n  x\n     \n  y\n',
  'a: |\n \n  x\n',
  'a: |\n  \n  x\n',
  'a: | # a comment\n  x\n',
  'a: |-   # a comment\n  x\n',
  'a: |  \n  x\n',
  'a: |\r\n  x\r\n  y\r\n',
  'a: |\r\n  x\r\n\r\nb: 1\r\n',
  'a: |\r\n  x\r\n   \r\nb: 1\r\n',
  'a: |\n  x\ty\n  \tz\n  \t\n',
  'a: |\n  ---\n  ...\n  %x\n  - item\n  k: v\n  [a, b]\n  "q\n',
  'a: |\n  x\n  \n',
  'a: |-\n  x\n\n\n',
  'a: |\n  x  \n',
  'a: |\n  x\n   ',
  'a:\n  b: |\n   x\n  c: 1\n',
  'a: |\n x\nb: |-\n y\n',
  '"a": |\n  x\n',
  'a: |\n  x\n\n# c\n\nb: 1\n',
  'a: |\n  \u00a0x\u2028y\ufeff\u0085 é 😀\n',
  'l:\n- |\n x\n',
  'l:\n  -   |\n   x\n',
  'l:\n  - |\n    x\n  - |-\n    y\n  - z\n',
  'l:\n  - k: |\n      v\n    j: 1\n  - k: |-\n     w\n',
  'l:\n  - |\n    x\n  # c\n  - y\n',
  'l:\n  - |\n    x\n # c\n  - y\n',
  'l:\n  - |\n  - |-\n  - x\n',
];

const GIVE_UP = [
  'list:\n  - - nested\n',
  'a: &anchor 1\nb: *anchor\n',
  'a: !!str 1\n',
  'a: >\n  folded\n',
  'a: >-\n  folded\n',
  'a: |+\n  keep\n',
  'a: |2\n   indicated\n',
  'a: |-2\n   indicated\n',
  'a: |#c\n  x\n',
  'a: |\t\n  x\n',
  'a: |x\n',
  '- |\n  top-level block\n',
  'a: |\n    x\n  y\n', // less indented than its first line: an error
  'a: |\n     \n  x\n', // a leading blank line deeper than the first: an error
  'a: |\n  x\n#c\n  y\n', // content after the block has ended
  'a: |\n  x\n\t\n',
  'a: |\n\t\n  x\n',
  'a: |\n \tx\n',
  'a: |\n  x\n---\n',
  'a: |\n  x\n...\n',
  'a: |\n   \nb: 1\n', // blank lines only, deeper than the key: left to the full parser
  'a: |\n  x\ry\n', // a CR that does not end a line
  'a: x\r',
  'a: x\ry\n',
  'a: "x"\u00a0\n', // not white space, so not allowed after a quoted scalar
  'l:\n  - \tx\n',
  'a: {b: 1}\n',
  'a: multi\n  line plain\n',
  'a: "multi\n  line quoted"\n',
  'a: 1\na: 2\n',
  '\ta: 1\n',
  'a:\n\t- b\n',
  '? complex\n: key\n',
  '- a\n- b\n',
  'just a string\n',
  '  indented: first\n',
  'a: [1, [2]]\n',
  'a: [1, 2,]\n',
  'a: [1, 2\n',
  'a: b: c\n',
  '1: number key\n',
  'true: bool key\n',
  'a: 99999999999999999999\n',
  '---\na: 1\n',
  'a: "\\q"\n',
  '__proto__: x\n',
  'list:\n  - a\n    b\n',
  'map:\n    a: 1\n  b: 2\n',
];

describe('readFastYaml agrees with the yaml package', () => {
  it.each(SAME.map((text) => [JSON.stringify(text).slice(0, 60), text]))('%s', (_label, text) => {
    expectSameAsYaml(text);
  });
});

describe('readFastYaml gives up on what it does not read', () => {
  it.each(GIVE_UP.map((text) => [JSON.stringify(text), text]))('%s', (_label, text) => {
    expect(readFastYaml(text, 2)).toBeUndefined();
  });
});

describe('readFastYaml positions', () => {
  it('offsets lines by the front matter start', () => {
    const fast = readFastYaml('name: x\nhooks:\n  - event: a\n', 5)!;
    expect(fast.locate(['hooks', 0])).toEqual({ line: 7, column: 5 });
    expect(fast.locate(['hooks', 0, 'event'])).toEqual({ line: 7, column: 5 });
    expect(fast.locate(['nope'])).toBeUndefined();
  });
});

describe('readFastYaml on generated documents', () => {
  // A small seeded generator: maps, lists and scalars of the kinds front matters hold.
  let seed = 12345;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const WORDS = [
    'a',
    'event',
    'session.post_stop',
    '/usr/bin/env',
    '-lc',
    'echo ready',
    "it's",
    'x: y',
    '#tag',
    'a #b',
    '5s',
    '1.5',
    '007',
    'true',
    'null',
    '',
    ' pad ',
    'é☺',
    '[x]',
    '{y}',
    '- z',
    'key:',
    '"q"',
    'multi\nline',
  ];
  const scalar = (): unknown => {
    switch (rand(5)) {
      case 0:
        return rand(1000) - 500;
      case 1:
        return rand(2) === 0;
      case 2:
        return null;
      default:
        return WORDS[rand(WORDS.length)];
    }
  };
  const value = (depth: number): unknown => {
    const kind = depth > 3 ? 2 : rand(3);
    if (kind === 0) return Array.from({ length: rand(4) }, () => value(depth + 1));
    if (kind === 1)
      return Object.fromEntries(Array.from({ length: 1 + rand(4) }, (_, i) => [`k${i}_${rand(50)}`, value(depth + 1)]));
    return scalar();
  };

  it('agrees wherever it does not give up, and rarely gives up on plain documents', async () => {
    const { stringify } = await import('yaml');
    let read = 0;
    for (let n = 0; n < 400; n++) {
      const doc = Object.fromEntries(Array.from({ length: 1 + rand(5) }, (_, i) => [`top${i}`, value(0)]));
      const text = stringify(doc, { flowCollectionPadding: false, indentSeq: n % 2 === 0 });
      if (readFastYaml(text, 2) === undefined) continue;
      read++;
      expectSameAsYaml(text);
    }
    expect(read).toBeGreaterThan(200);
  });
});

describe('readFastYaml on the demo front matters', () => {
  // All seven take the fast path (four of them hold `|` blocks), so `hooks list` on the demo
  // never loads the `yaml` package. (fixtures/demo/claude is Claude Code's, read separately.)
  const demo = fileURLToPath(new URL('../../fixtures/demo', import.meta.url));
  const files = readdirSync(demo, { recursive: true, encoding: 'utf8' })
    .filter((f) => /(?:^|\/)(?:AGENT|SKILL)\.md$/.test(f) && !f.startsWith('claude/'))
    .sort();

  it('finds them', () => {
    expect(files).toHaveLength(7);
  });

  it.each(files)('%s', (file) => {
    const split = splitFrontMatter(readFileSync(join(demo, file), 'utf8'));
    expect(split.kind).toBe('block');
    if (split.kind === 'block') expectSameAsYaml(split.block.text);
  });
});

describe('readFastYaml on generated block scalars', () => {
  // Documents written as text, to reach what a serialiser never writes: blank lines of every
  // width, deeper lines, content that looks like comments or structure, comments after a
  // block, CRLF, a missing final line break, invalid indentation. Wherever the fast reader
  // accepts a document, it must read it as the `yaml` package does. HOOKCTL_YAML_CASES runs
  // more (e.g. 200000) by hand.
  const CASES = Number(process.env.HOOKCTL_YAML_CASES ?? 3000);
  let seed = 987654321;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor((seed / 2147483648) * n);
  };
  const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;
  const spaces = (n: number): string => ' '.repeat(n);
  const HEADERS = ['|', '|', '|-', '|-', '| # c', '|-  # c', '|  ', '|+', '|2', '>', '|-1', '|#c'];
  const CONTENT = [
    'x',
    'echo "$payload" | jq .',
    '# not a comment',
    '- item',
    'k: v',
    '---',
    '...',
    '%x',
    '\ttab',
    'a\tb',
    'é😀 ☺',
    '[a, b]',
    "'q",
    '"q',
    'trailing  ',
    'a\rb',
    '|',
    '\u00a0nbsp',
  ];
  const SCALARS = ['v', '1', 'true', '"q"', "'s'", '[a, 1]', 'a b # c', ''];

  /** The lines of a literal block whose parent (key or dash) sits at column `parent`. */
  const blockBody = (parent: number): string[] => {
    const lines: string[] = [];
    const roll = rand(10);
    const indent = roll === 0 ? parent : roll === 1 ? Math.max(0, parent - 1) : parent + 1 + rand(3);
    const count = rand(6);
    for (let i = 0; i < count; i++) {
      switch (rand(9)) {
        case 0:
          lines.push('');
          break;
        case 1:
          lines.push(spaces(rand(indent + 3)));
          break;
        case 2:
          lines.push(spaces(indent + 1 + rand(3)) + pick(CONTENT));
          break;
        case 3:
          if (rand(4) === 0) lines.push(spaces(parent + 1 + rand(Math.max(1, indent - parent))) + pick(CONTENT));
          else lines.push(spaces(indent) + pick(CONTENT));
          break;
        default:
          lines.push(spaces(indent) + pick(CONTENT));
      }
    }
    const after = rand(6);
    if (after === 0) lines.push('');
    else if (after === 1) lines.push(spaces(rand(indent + 3)));
    else if (after === 2) lines.push(spaces(rand(indent + 1)) + '# after');
    return lines;
  };

  const scalarOrBlock = (parent: number, lead: string): string[] => {
    if (rand(3) === 0) return [`${lead}${pick(SCALARS)}`.trimEnd()];
    return [`${lead}${pick(HEADERS)}`, ...blockBody(parent)];
  };

  const map = (indent: number, depth: number): string[] => {
    const lines: string[] = [];
    const n = 1 + rand(3);
    for (let k = 0; k < n; k++) {
      const key = `${spaces(indent)}k${k}:`;
      const kind = depth > 2 ? rand(2) : rand(4);
      if (kind <= 1) lines.push(...scalarOrBlock(indent, `${key} `));
      else if (kind === 2) lines.push(key, ...map(indent + 1 + rand(3), depth + 1));
      else lines.push(key, ...list(rand(2) === 0 ? indent : indent + 2, depth + 1));
    }
    return lines;
  };

  const list = (indent: number, depth: number): string[] => {
    const lines: string[] = [];
    const n = 1 + rand(3);
    for (let i = 0; i < n; i++) {
      const dash = `${spaces(indent)}-${spaces(1 + (rand(5) === 0 ? rand(3) : 0))}`;
      if (rand(3) === 0 && depth <= 3) {
        // `- k: |`: a map whose keys sit at the item's column.
        const column = dash.length;
        const first = scalarOrBlock(column, `${dash}k:`.padEnd(column + 3, ' '));
        lines.push(...first);
        if (rand(2) === 0) lines.push(...scalarOrBlock(column, `${spaces(column)}j: `));
      } else lines.push(...scalarOrBlock(indent, dash));
    }
    return lines;
  };

  it(`agrees wherever it does not give up (${CASES} documents)`, () => {
    let read = 0;
    let withBlocks = 0;
    for (let n = 0; n < CASES; n++) {
      const eol = rand(5) === 0 ? '\r\n' : '\n';
      let text = map(0, 0).join(eol) + eol;
      if (rand(8) === 0) text = text.slice(0, -eol.length); // no final line break
      if (readFastYaml(text, 2) === undefined) continue;
      read++;
      if (/[|]/.test(text)) withBlocks++;
      expectSameAsYaml(text);
    }
    if (process.env.HOOKCTL_YAML_CASES) console.log(`CASES ${CASES} read ${read} withBlocks ${withBlocks}`);
    // The generator writes enough that the fast path reads for the check to mean something.
    expect(read).toBeGreaterThan(CASES * 0.2);
    expect(withBlocks).toBeGreaterThan(CASES * 0.1);
  });
});
