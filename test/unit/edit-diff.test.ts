import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_EDIT_LENGTH, splitLines, unifiedDiff } from '../../src/edit/unified-diff.js';

/** Applies a unified diff to `text` strictly: every context and removed line must match. */
function applyPatch(text: string, diff: string): string {
  const source = splitLines(text);
  const out: string[] = [];
  let at = 0;
  const lines = diff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let i = 2; // skip ---/+++
  while (i < lines.length) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(lines[i]!);
    if (!m) throw new Error(`bad hunk header: ${lines[i]}`);
    const oldStart = Number(m[1]);
    const oldCount = m[2] === undefined ? 1 : Number(m[2]);
    const begin = oldCount === 0 ? oldStart : oldStart - 1;
    while (at < begin) out.push(source[at++]!);
    i++;
    while (i < lines.length && !lines[i]!.startsWith('@@')) {
      const line = lines[i]!;
      const noEol = lines[i + 1] === '\\ No newline at end of file';
      const content = line.slice(1) + (noEol ? '' : '\n');
      if (line[0] === ' ' || line[0] === '-') {
        if (source[at] !== content)
          throw new Error(
            `context mismatch at old line ${at + 1}: ${JSON.stringify(source[at])} vs ${JSON.stringify(content)}`,
          );
        at++;
        if (line[0] === ' ') out.push(content);
      } else if (line[0] === '+') out.push(content);
      else throw new Error(`bad line: ${line}`);
      i += noEol ? 2 : 1;
    }
  }
  while (at < source.length) out.push(source[at++]!);
  return out.join('');
}

/** A deterministic pseudo-random generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', { oldLabel: 'a', newLabel: 'b' })).toBe('');
  });

  it('writes hunks as diff -u does', () => {
    const before =
      ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'].join('\n') +
      '\n';
    const after = before.replace('two\n', 'TWO\n').replace('eleven\n', 'eleven\nextra\n');
    expect(unifiedDiff(before, after, { oldLabel: 'config.toml', newLabel: 'config.toml' })).toBe(
      [
        '--- config.toml',
        '+++ config.toml',
        '@@ -1,5 +1,5 @@',
        ' one',
        '-two',
        '+TWO',
        ' three',
        ' four',
        ' five',
        '@@ -9,4 +9,5 @@',
        ' nine',
        ' ten',
        ' eleven',
        '+extra',
        ' twelve',
        '',
      ].join('\n'),
    );
  });

  it('describes a new file against /dev/null and marks a last line without a line break', () => {
    expect(unifiedDiff('', 'a\nb', { oldLabel: '/dev/null', newLabel: 'x' })).toBe(
      '--- /dev/null\n+++ x\n@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\n',
    );
    expect(unifiedDiff('a\nb\n', '', { oldLabel: 'x', newLabel: 'x' })).toBe('--- x\n+++ x\n@@ -1,2 +0,0 @@\n-a\n-b\n');
  });

  it('merges changes closer than twice the context into one hunk', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'A\nb\nc\nd\ne\nf\ng\nH\n';
    const diff = unifiedDiff(before, after, { oldLabel: 'x', newLabel: 'x' });
    expect(diff.match(/^@@/gm)).toHaveLength(1);
  });

  it('round-trips: applying the diff to the old text gives the new one', () => {
    const random = rng(7);
    const words = ['alpha', 'beta', 'gamma', 'delta', '', '# comment', '[[hooks.declarations]]'];
    for (let round = 0; round < 300; round++) {
      const n = Math.floor(random() * 30);
      const a = Array.from({ length: n }, () => words[Math.floor(random() * words.length)]!);
      const b = a
        .filter(() => random() > 0.2)
        .flatMap((l) => (random() > 0.85 ? [l, words[Math.floor(random() * words.length)]!] : [l]));
      const join = (ls: string[], eol: boolean) => ls.join('\n') + (eol && ls.length ? '\n' : '');
      const before = join(a, random() > 0.2);
      const after = join(b, random() > 0.2);
      const diff = unifiedDiff(before, after, { oldLabel: 'a', newLabel: 'b', context: Math.floor(random() * 4) });
      expect(applyPatch(before, diff)).toBe(after);
    }
  });

  // Its speed is a benchmark's business (docs/PERFORMANCE.md: the --dry-run diffs); here, that a
  // small change in a large file gives the one small hunk, not a block replacement.
  it('a small change in a large file is one hunk of that change and its context', () => {
    const before = Array.from({ length: 100_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 50000\n', 'line 50000 changed\n');
    const diff = unifiedDiff(before, after, { oldLabel: 'a', newLabel: 'b' });
    expect(diff.match(/^@@.*$/gm)).toEqual(['@@ -49998,7 +49998,7 @@']);
    expect(diff.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toEqual(['-line 50000', '+line 50000 changed']);
    expect(applyPatch(before, diff)).toBe(after);
  });

  it('falls back to a block replacement, still correct, when the texts share almost nothing', () => {
    const before = Array.from({ length: 6000 }, (_, i) => `old ${i}`).join('\n') + '\n';
    const after = Array.from({ length: 6000 }, (_, i) => `new ${i}`).join('\n') + '\n';
    const diff = unifiedDiff(before, after, { oldLabel: 'a', newLabel: 'b' });
    expect(applyPatch(before, diff)).toBe(after);
  });

  it(`bounds its work: beyond ${MAX_EDIT_LENGTH} changed lines, one block replacement between the common lines`, () => {
    // 3,144 changed lines, as in issue 18 (the hand-written diff took 5.9 s on it).
    const keep = ['[hooks]', 'first = true', 'second = true', 'third = true'];
    const lines = Array.from({ length: 3144 }, (_, i) => `key_${i} = "${i}"`);
    const before = [...keep, ...lines, ...keep].join('\n') + '\n';
    const after = [...keep, ...lines.map((l) => l.replace('"', '"x')), ...keep].join('\n') + '\n';
    const diff = unifiedDiff(before, after, { oldLabel: 'a', newLabel: 'b' });
    expect(diff.match(/^@@.*$/gm)).toEqual(['@@ -2,3150 +2,3150 @@']);
    expect(diff.split('\n').filter((l) => l.startsWith('-')).length).toBe(3144 + 1); // and the '---' line
    expect(applyPatch(before, diff)).toBe(after);
    // Just under the bound the package's own minimal diff is kept: one hunk per changed line.
    const near = lines.slice(0, 400);
    const every4th = near.map((l, i) => (i % 4 === 0 ? l + ' # changed' : l));
    const small = unifiedDiff(near.join('\n') + '\n', every4th.join('\n') + '\n', {
      oldLabel: 'a',
      newLabel: 'b',
      context: 0,
    });
    expect(small.match(/^@@/gm)).toHaveLength(100);
  });
});

// GNU diff -u is the reference for the text itself. Where several shortest edit scripts exist
// (repeated lines), GNU's choice can differ from any other correct diff, so these are the kinds
// of change the editing commands make, each with one shortest answer.
describe.skipIf(!existsSync('/usr/bin/diff'))('unifiedDiff and GNU diff -u', () => {
  const config = readFileSync(join(__dirname, '..', 'fixtures', 'edit', 'seed-config.toml'), 'utf8');
  const cases: [string, string, string][] = [
    ['a field changed', config, config.replace(/timeout = "[^"]*"/, 'timeout = "9s"')],
    [
      'a declaration appended',
      config,
      config + '\n[[hooks.declarations]]\nname = "new"\nevent = "session.post_create"\n',
    ],
    [
      'a line removed near the top',
      config,
      config.split('\n').slice(0, 1).concat(config.split('\n').slice(2)).join('\n'),
    ],
    ['a new file', '', 'a\nb\n'],
    ['a file emptied', 'a\nb\n', ''],
    ['the last line break dropped', 'a\nb\nc\n', 'a\nb\nc'],
    ['a last line without a break changed', 'a\nb\nc', 'a\nb\nC'],
    ['one line in one', 'a\n', 'b\n'],
    [
      'two changes far apart',
      Array.from({ length: 30 }, (_, i) => `l${i}`).join('\n') + '\n',
      Array.from({ length: 30 }, (_, i) => (i === 2 || i === 25 ? `L${i}` : `l${i}`)).join('\n') + '\n',
    ],
    ['two changes close together', 'a\nb\nc\nd\ne\nf\ng\nh\n', 'A\nb\nc\nd\ne\nf\ng\nH\n'],
  ];
  let dir: string;
  it.each(cases)('%s', (_name, before, after) => {
    dir = mkdtempSync(join(tmpdir(), 'hookctl-diff-'));
    try {
      writeFileSync(join(dir, 'old'), before);
      writeFileSync(join(dir, 'new'), after);
      for (const context of [3, 1, 0]) {
        const gnu = spawnSync(
          '/usr/bin/diff',
          [`-U${context}`, '--label', 'x/config.toml', '--label', 'x/config.toml', 'old', 'new'],
          { cwd: dir, encoding: 'utf8' },
        );
        expect(gnu.status).toBe(1);
        expect(unifiedDiff(before, after, { oldLabel: 'x/config.toml', newLabel: 'x/config.toml', context })).toBe(
          gnu.stdout,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
