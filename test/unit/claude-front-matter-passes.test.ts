// Claude Code's two passes over front matter (claude.md §2.1.1, issue 27).
import { describe, expect, it } from 'vitest';
import { parseFrontMatterText } from '../../src/dialects/claude/sources/front-matter.js';
import { requoteFrontMatter } from '../../src/dialects/claude/sources/front-matter-requote.js';

const hooks = 'hooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo hi\n';
const read = (head: string, body = hooks) =>
  parseFrontMatterText(`---\n${head}${body}---\nbody\n`, '/x/SKILL.md', {
    source: 'claude_skill',
    kind: 'skill',
    fallbackName: 'x',
    originOf: (n) => `skill/project/${n}`,
  });

describe('requoteFrontMatter', () => {
  it('quotes top-level plain values holding YAML-special characters, and nothing else', () => {
    const text = [
      'argument-hint: [issue] [--plan-doc path]',
      'tags: [a, b]',
      'quoted: "a: b"',
      "single: '[x]'",
      'plain: hello world',
      'colon: see: this',
      'path: C:\\dir "x" @home',
      '  indented: [a] [b]',
      '- item: [a] [b]',
      'hooks:',
      '\tkey: v',
    ].join('\n');
    const r = requoteFrontMatter(text);
    expect(r.text.split('\n')).toEqual([
      'argument-hint: "[issue] [--plan-doc path]"',
      'tags: [a, b]',
      'quoted: "a: b"',
      "single: '[x]'",
      'plain: hello world',
      'colon: "see: this"',
      'path: "C:\\\\dir \\"x\\" @home"',
      '  indented: [a] [b]',
      '- item: [a] [b]',
      'hooks:',
      '  key: v',
    ]);
    expect(r.rewritten).toEqual([
      { key: 'argument-hint', index: 0 },
      { key: 'colon', index: 5 },
      { key: 'path', index: 6 },
    ]);
  });
});

describe('front matter in two passes', () => {
  it('an unquoted argument-hint: the hooks load, with one warning at that line', () => {
    const fm = read('description: d\nargument-hint: [issue] [--plan-doc path]\n');
    expect(fm.handlers.map((h) => [h.name, h.ok])).toEqual([['skill/project/x:Stop:1.1', true]]);
    expect(fm.diagnostics.map((d) => [d.severity, d.code, d.line, d.message])).toEqual([
      [
        'warning',
        'claude_frontmatter_requoted',
        3,
        'front matter is not valid YAML (Unexpected flow-seq-start at node end); Claude Code reads it after quoting the value of argument-hint; quote it yourself',
      ],
    ]);
  });

  it('names every rewritten key, once each', () => {
    const fm = read('a: [x] [y]\nb: {x} y\n');
    expect(fm.diagnostics).toHaveLength(1);
    expect(fm.diagnostics[0]!.message).toContain('quoting the value of a, b;');
  });

  it('a hooks: line that had to be quoted loses the hooks: yaml_parse_error at that line', () => {
    const fm = read('x: [a] [b]\n', 'hooks: {Stop: [x]} oops\n');
    expect(fm.handlers).toEqual([]);
    expect(fm.diagnostics.map((d) => [d.severity, d.code, d.line])).toEqual([['error', 'yaml_parse_error', 3]]);
  });

  it('valid YAML takes one pass and gives no warning', () => {
    const fm = read('argument-hint: "[issue]"\n');
    expect(fm.diagnostics).toEqual([]);
    expect(fm.handlers).toHaveLength(1);
  });

  it('when the second pass fails too, it is still an error', () => {
    const fm = read('argument-hint: [issue] [x]\n', 'hooks:\n  Stop: [\n');
    expect(fm.handlers).toEqual([]);
    expect(fm.diagnostics.map((d) => d.code)).toContain('yaml_parse_error');
  });
});
