import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { readFastYaml } from '../../src/declarations/compozy/yaml-fast.js';
import { yamlLocator } from '../../src/declarations/frontmatter.js';
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
  'big: 12345678901234\nneg: -0\nfloaty: 1.0\n',
];

const GIVE_UP = [
  'list:\n  - - nested\n',
  'a: &anchor 1\nb: *anchor\n',
  'a: !!str 1\n',
  'a: |\n  block\n',
  'a: >\n  folded\n',
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
