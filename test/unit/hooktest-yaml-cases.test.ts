// Reading a YAML test file one case at a time (issue 24) must give what one parse of the whole
// file gives: the same document, the same position for every key and item, and, for any file it
// does not model, no answer at all (the loader then parses the whole file as before).
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { yamlLocator } from '../../src/declarations/frontmatter.js';
import type { PathSeg } from '../../src/declarations/source-file.js';
import { caseItemRanges, readCaseItems } from '../../src/hooktest/yaml-cases.js';

function whole(text: string) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const locate = yamlLocator(doc, (offset) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  });
  return { document: doc.toJS({ maxAliasCount: 100 }) as unknown, locate, errors: doc.errors.length };
}

/** Every path into a value, and a few that lead nowhere. */
function paths(value: unknown, prefix: PathSeg[] = []): PathSeg[][] {
  const out: PathSeg[][] = [prefix, [...prefix, 'nope'], [...prefix, 99]];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function expectSameAsWhole(text: string): void {
  const byCase = readCaseItems(text);
  expect(byCase, 'read one case at a time').toBeDefined();
  const ref = whole(text);
  expect(ref.errors).toBe(0);
  expect(byCase!.document).toEqual(ref.document);
  for (const path of paths(ref.document)) expect(byCase!.locate(path), JSON.stringify(path)).toEqual(ref.locate(path));
}

const CASES = `# a comment
name: guard
env:
  A: "1"
cases:
  - name: first
    event: tool.pre_call
    payload: { tool_id: fs.write, input: { path: .env, list: [1, 2,
        3] } }
    expect:
      verdict: denied
      ran: [guard]
      reason: |
        - looks like an item
        cases:
  - name: "second: quoted"
    event: tool.pre_call
# a comment at column 0 between items
    dialect: compozy
    payload:
      text: 'multi
        line - x'
      n: 12
      b: true
      z: null
    hooks:
      - guard
      - other
  -   name: third
      event: prompt.post_assemble
      expect: { outcomes: { guard: applied } }
`;

describe('readCaseItems', () => {
  it('gives the document and every position of a whole parse', () => {
    expectSameAsWhole(CASES);
    expect(caseItemRanges(CASES)).toHaveLength(3);
  });

  it('keeps keys after the cases, a list at column 0, CRLF lines and an empty item', () => {
    expectSameAsWhole(
      `cases:\n- name: a\n  event: x\n-\n- name: b\n  event: y\n\n# end\nworkspace: ws\ndialect: cosh\n`,
    );
    expectSameAsWhole(CASES.replaceAll('\n', '\r\n'));
    expectSameAsWhole(`workspace: .\ncases: # the cases\n\n  - { name: a, event: x }\n  - name: b\n    event: y`);
  });

  it('leaves every file it does not model to the whole parse', () => {
    const notModelled = [
      'cases: []\n',
      'cases:\n  name: a\n',
      '{ cases: [ { name: a, event: x } ] }\n',
      'name: x\n', // no cases
      'cases:\n  - &d { name: a, event: x }\n  - *d\n', // anchors and aliases
      'cases:\n  - !!map { name: a, event: x }\n', // tags
      '%YAML 1.2\n---\ncases:\n  - { name: a, event: x }\n', // directives
      'cases:\n  - { name: a, event: x }\n---\ncases:\n  - { name: b, event: y }\n', // two documents
      'cases:\n  - ? name\n    : a\n', // explicit keys
      'cases:\n\t- { name: a, event: x }\n', // a tab as indentation
    ];
    for (const text of notModelled) expect(readCaseItems(text), JSON.stringify(text)).toBeUndefined();
  });

  it('gives no answer for a file with an error, so the whole parse reports it as before', () => {
    const broken = [
      'cases:\n  - name: "open\n  - name: b\n', // an unclosed quote
      'cases:\n  - name: a\n    name: b\n', // a duplicate key in a case
      'cases:\n  - name: a\ncases:\n  - name: b\n', // a duplicate top-level key
      'cases:\n  - name: a\n    payload: { a: [1,\n  2] }\n', // a flow list less indented than its case
      'cases:\n  - name: a\n   event: x\n', // a key indented wrong
    ];
    for (const text of broken) {
      expect(whole(text).errors, JSON.stringify(text)).toBeGreaterThan(0);
      expect(readCaseItems(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('cuts a 10,000-case file into 10,000 pieces', () => {
    const text = `cases:\n${Array.from({ length: 10_000 }, (_, i) => `  - name: c${i}\n    event: tool.pre_call\n`).join('')}`;
    expect(caseItemRanges(text)).toHaveLength(10_000);
    expectSameAsWhole(text);
  });
});
