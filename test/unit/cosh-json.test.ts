import { describe, expect, it } from 'vitest';
import { jsonEntry, jsonValue, parseJsonWithPositions, type JsonNode } from '../../src/declarations/json.js';

function parsed(text: string): JsonNode {
  const r = parseJsonWithPositions(text);
  if (!r.ok) throw new Error(`unexpected syntax error: ${r.error.message}`);
  return r.value;
}

describe('parseJsonWithPositions', () => {
  it('returns the same values as JSON.parse', () => {
    const samples = [
      '{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9\\"\\\\"], "b": {}}',
      '[]',
      '"just a string"',
      '0',
      '{"nested": {"deep": [[{"k": "v"}]]}}',
    ];
    for (const text of samples) expect(jsonValue(parsed(text))).toEqual(JSON.parse(text));
  });

  it('records the line and column of objects and keys', () => {
    const text = '{\n  "name": "x",\n  "hooks": [\n    {\n      "type": "command"\n    }\n  ]\n}\n';
    const root = parsed(text);
    if (root.kind !== 'object') throw new Error('object expected');
    expect(root).toMatchObject({ line: 1, column: 1 });
    expect(jsonEntry(root, 'name')).toMatchObject({ line: 2, column: 3 });
    const hooks = jsonEntry(root, 'hooks')!;
    expect(hooks.line).toBe(3);
    if (hooks.value.kind !== 'array') throw new Error('array expected');
    const hook = hooks.value.items[0]!;
    expect(hook).toMatchObject({ kind: 'object', line: 4, column: 5 });
    if (hook.kind !== 'object') throw new Error('object expected');
    expect(jsonEntry(hook, 'type')).toMatchObject({ line: 5, column: 7 });
  });

  it('keeps positions right with CRLF line ends and escaped strings', () => {
    const root = parsed('{\r\n  "a": "x\\"y",\r\n  "b": 1\r\n}');
    if (root.kind !== 'object') throw new Error('object expected');
    expect(jsonEntry(root, 'a')).toMatchObject({ line: 2, column: 3, value: { value: 'x"y', line: 2, column: 8 } });
    expect(jsonEntry(root, 'b')).toMatchObject({ line: 3, column: 3 });
  });

  it('lets the last of repeated keys win, like JSON.parse', () => {
    const root = parsed('{"a": 1, "a": 2}');
    if (root.kind !== 'object') throw new Error('object expected');
    expect(jsonEntry(root, 'a')!.value).toMatchObject({ value: 2 });
  });

  it('tolerates a byte order mark', () => {
    expect(jsonValue(parsed('\uFEFF{"a": 1}'))).toEqual({ a: 1 });
  });

  it.each([
    ['{"a": 1,}', 1, 8, "trailing comma before '}'"],
    ['{\n  "a": [1, 2,\n  ]\n}', 2, 13, "trailing comma before ']'"],
    ['{"a": 1,, "b": 2}', 1, 9, 'expected a string key'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, "expected ',' or '}'"],
    ['{"a": tru}', 1, 7, 'expected a value'],
    ['{"a": "unterminated', 1, 20, 'unterminated string'],
    ['[1, 2', 1, 6, 'unexpected end of input'],
    ['{"a": 1} extra', 1, 10, 'unexpected content after the JSON value'],
    ['', 1, 1, 'unexpected end of input'],
    ['{"a": "tab\there"}', 1, 11, 'control character in string'],
    ['{"a": 01}', 1, 8, "expected ',' or '}'"],
  ])('reports %j as a syntax error with its position', (text, line, column, message) => {
    const r = parseJsonWithPositions(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ line, column });
    expect(r.error.message).toContain(message);
  });

  it('refuses absurd nesting as data instead of overflowing the stack', () => {
    const r = parseJsonWithPositions('['.repeat(100_000));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('nesting deeper than');
  });
});
