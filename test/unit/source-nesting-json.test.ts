// Issue 24: the nesting guard of JSON files skips brackets inside strings, so a valid claude
// settings file whose `statusLine.command` holds 300 `[` is read; real nesting past the limit is
// still refused.
import { describe, expect, it } from 'vitest';
import { jsonTooDeepAt, MAX_NESTING, tooDeepAt } from '../../src/declarations/source-file.js';

describe('jsonTooDeepAt', () => {
  it('skips brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ statusLine: { type: 'command', command: '['.repeat(300) + '"{'.repeat(300) } });
    expect(tooDeepAt(text)).toBeDefined(); // the guard every format uses: brackets anywhere
    expect(jsonTooDeepAt(text)).toBeUndefined();
  });

  it('still finds real nesting past the limit, after strings full of brackets', () => {
    const deep = '['.repeat(MAX_NESTING + 1) + ']'.repeat(MAX_NESTING + 1);
    const text = `{"a": "${'['.repeat(300)}", "b": ${deep}}`;
    expect(jsonTooDeepAt(text)).toBe(text.indexOf('[', text.indexOf('"b"')) + MAX_NESTING - 1);
  });
});
