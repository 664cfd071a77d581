// The nesting guard that runs before every parser (src/declarations/source-file.ts).
import { describe, expect, it } from 'vitest';
import { MAX_NESTING, tooDeepAt } from '../../src/declarations/source-file.js';

/** The plain definition: the offset of the first opener past MAX_NESTING. */
function reference(text: string): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[' || c === '{') {
      if (++depth > MAX_NESTING) return i;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return undefined;
}

describe('tooDeepAt', () => {
  it('passes a config with far more openers than the limit, all shallow', () => {
    const config = '[[hooks.declarations]]\nname = "x"\nargs = ["a", {b = 1}]\n\n'.repeat(400);
    expect(tooDeepAt(config)).toBeUndefined();
  });

  it('finds the first opener past the limit, after many shallow ones', () => {
    const shallow = '[[hooks.declarations]]\n'.repeat(300);
    const deep = `x = ${'['.repeat(MAX_NESTING + 5)}${']'.repeat(MAX_NESTING + 5)}\n`;
    const at = tooDeepAt(shallow + deep);
    expect(at).toBe(shallow.length + 4 + MAX_NESTING);
    expect(at).toBe(reference(shallow + deep));
  });

  it('agrees with the plain definition on random bracket texts', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const alphabet = ['[', '{', ']', '}', 'a', '\n', '"'];
    let deep = 0;
    for (let n = 0; n < 300; n++) {
      // Biased towards openers so that about half the texts pass the limit.
      const length = 200 + (next() % 2000);
      let text = '';
      for (let i = 0; i < length; i++)
        text += next() % 10 < 2 ? alphabet[next() % 2] : alphabet[next() % alphabet.length];
      expect(tooDeepAt(text), text.slice(0, 40)).toBe(reference(text));
      if (reference(text) !== undefined) deep++;
    }
    expect(deep).toBeGreaterThan(30); // both outcomes are exercised
    expect(deep).toBeLessThan(270);
  });
});
