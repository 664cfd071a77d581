// `if` rules (claude.md §4.2): tool names, MCP servers, file globs, and what fails open.
import { describe, expect, it } from 'vitest';
import { evaluateIfRule, parseRule } from '../../src/dialects/claude/rules/if-eval.js';
import { compilePathGlob, globMatches } from '../../src/dialects/claude/rules/glob-match.js';
import { evaluatePathPattern, pathPatternProblem } from '../../src/dialects/claude/rules/path-rule.js';

/** The glob as a matcher over a `/`-separated relative path. */
const globRegex = (glob: string) => ({ test: (path: string) => globMatches(compilePathGlob(glob), path) });

const cwd = '/work/proj';
const home = '/home/u';

function ctx(payload: Record<string, unknown>) {
  return { payload, cwd, home };
}

describe('parseRule', () => {
  it('reads Tool and Tool(pattern), and refuses lists', () => {
    expect(parseRule('Bash')).toEqual({ tool: 'Bash' });
    expect(parseRule('Bash(git push *)')).toEqual({ tool: 'Bash', pattern: 'git push *' });
    expect(parseRule('Bash(git *) && Edit')).toBeUndefined();
    expect(parseRule('Bash(a), Edit(b)')).toBeUndefined();
  });
});

describe('file globs', () => {
  it('keeps * and ? within a segment, lets ** span segments', () => {
    expect(globRegex('*.ts').test('a.ts')).toBe(true);
    expect(globRegex('*.ts').test('src/a.ts')).toBe(false);
    expect(globRegex('src/**').test('src/a/b.ts')).toBe(true);
    expect(globRegex('**/src/**').test('src/a.ts')).toBe(true);
    expect(globRegex('**/src/**').test('x/y/src/a.ts')).toBe(true);
    expect(globRegex('a?.[jt]s').test('ab.ts')).toBe(true);
    expect(globRegex('[!a]*').test('abc')).toBe(false);
  });

  it('matches a name at any depth without a slash, anchors at cwd with one', () => {
    expect(evaluatePathPattern('*.ts', '/work/proj/deep/x/a.ts', cwd, home).verdict).toBe('match');
    expect(evaluatePathPattern('.env', '/work/proj/api/.env', cwd, home).verdict).toBe('match');
    expect(evaluatePathPattern('src/**', '/work/proj/src/a/b.ts', cwd, home).verdict).toBe('match');
    expect(evaluatePathPattern('src/**', '/work/proj/lib/src/a.ts', cwd, home).verdict).toBe('no_match');
    expect(evaluatePathPattern('**/src/**', '/work/proj/lib/src/a.ts', cwd, home).verdict).toBe('match');
    expect(evaluatePathPattern('secrets', '/work/proj/secrets/key.pem', cwd, home).verdict).toBe('match');
    expect(evaluatePathPattern('src/*.ts', 'src/a.ts', cwd, home).verdict).toBe('match');
  });

  it('never matches outside cwd, reads ~/ as HOME, fails open on a leading / and a missing path', () => {
    expect(evaluatePathPattern('*.ts', '/elsewhere/a.ts', cwd, home).verdict).toBe('no_match');
    expect(evaluatePathPattern('~/.ssh/**', '/home/u/.ssh/id_rsa', cwd, home).verdict).toBe('match');
    expect(evaluatePathPattern('~/.ssh/**', '/work/proj/.ssh/id_rsa', cwd, home).verdict).toBe('no_match');
    expect(evaluatePathPattern('/etc/**', '/etc/passwd', cwd, home).verdict).toBe('fail_open');
    expect(evaluatePathPattern('*.ts', undefined, cwd, home).verdict).toBe('fail_open');
  });
});

describe('evaluateIfRule', () => {
  it('does not run the hook when the tool differs', async () => {
    const v = await evaluateIfRule(
      'Bash(git *)',
      ctx({ tool_name: 'Edit', tool_input: { file_path: '/work/proj/a' } }),
    );
    expect(v).toEqual({ rule: 'Bash(git *)', verdict: 'no_match', why: 'tool_name is "Edit", not "Bash"' });
  });

  it('matches a bare tool, and mcp__<server> covers every tool of that server only', async () => {
    expect((await evaluateIfRule('Write', ctx({ tool_name: 'Write' }))).verdict).toBe('match');
    expect((await evaluateIfRule('mcp__memory', ctx({ tool_name: 'mcp__memory__create' }))).verdict).toBe('match');
    expect((await evaluateIfRule('mcp__memory', ctx({ tool_name: 'mcp__memoryx__create' }))).verdict).toBe('no_match');
    expect((await evaluateIfRule('mcp__memory__create', ctx({ tool_name: 'mcp__memory__create' }))).verdict).toBe(
      'match',
    );
  });

  it('evaluates Bash, file and notebook rules on their input fields', async () => {
    const bash = ctx({ tool_name: 'Bash', tool_input: { command: 'npm test && git push origin' } });
    expect((await evaluateIfRule('Bash(git push *)', bash)).verdict).toBe('match');
    expect((await evaluateIfRule('Bash(rm *)', bash)).verdict).toBe('no_match');
    const edit = ctx({ tool_name: 'Edit', tool_input: { file_path: '/work/proj/src/a.ts' } });
    expect((await evaluateIfRule('Edit(*.ts)', edit)).verdict).toBe('match');
    expect((await evaluateIfRule('Edit(*.md)', edit)).verdict).toBe('no_match');
    const nb = ctx({ tool_name: 'NotebookEdit', tool_input: { notebook_path: '/work/proj/n.ipynb' } });
    expect((await evaluateIfRule('NotebookEdit(*.ipynb)', nb)).verdict).toBe('match');
  });

  it('fails open on rules it does not evaluate and on text that is not a rule', async () => {
    const web = await evaluateIfRule('WebFetch(domain:example.com)', ctx({ tool_name: 'WebFetch' }));
    expect(web).toEqual({
      rule: 'WebFetch(domain:example.com)',
      verdict: 'fail_open',
      why: 'hookctl does not evaluate "WebFetch(domain:example.com)"',
    });
    expect((await evaluateIfRule('Bash(a) || Bash(b)', ctx({ tool_name: 'Bash' }))).verdict).toBe('fail_open');
  });
});

describe('file globs: compiled and matched in linear time (issue 24)', () => {
  it('reads classes: ranges, negation, a leading ], escapes; an unclosed [ is itself', () => {
    expect(globRegex('[a-c]x').test('bx')).toBe(true);
    expect(globRegex('[a-c]x').test('dx')).toBe(false);
    expect(globRegex('[!a-c]x').test('dx')).toBe(true);
    expect(globRegex('[^a-c]x').test('ax')).toBe(false);
    expect(globRegex('[]a]').test(']')).toBe(true);
    expect(globRegex('[\\]]').test(']')).toBe(true);
    expect(globRegex('a[b').test('a[b')).toBe(true);
    expect(globRegex('a/[!x]').test('a//')).toBe(false); // a class never matches /
    expect(globRegex('\\*').test('*')).toBe(true);
    expect(globRegex('\\*').test('x')).toBe(false);
    expect(globRegex('**/x').test('ax')).toBe(false);
    expect(globRegex('**/x').test('a/b/x')).toBe(true);
    expect(globRegex('a/**/b').test('a/b')).toBe(true);
    expect(globRegex('a/**/b').test('a/x/y/b')).toBe(true);
    expect(globRegex('a**b').test('a/x/b')).toBe(true);
  });

  it('a range out of order does not compile: named by pathPatternProblem, fail-open at fire', async () => {
    expect(pathPatternProblem('*.[z-a]')).toBe('range z-a is out of order');
    expect(pathPatternProblem('*.[a-z]')).toBeUndefined();
    expect(pathPatternProblem('[')).toBeUndefined();
    const v = await evaluateIfRule(
      'Edit(*.[z-a])',
      ctx({ tool_name: 'Edit', tool_input: { file_path: '/work/proj/a.ts' } }),
    );
    expect(v).toEqual({
      rule: 'Edit(*.[z-a])',
      verdict: 'fail_open',
      why: 'the pattern does not compile: range z-a is out of order',
    });
  });

  it('matches a pathological glob without backtracking, and fails open past the work bound', () => {
    const name = '-'.repeat(50_000);
    expect(evaluatePathPattern('*-*-*-*-*-*-X', `/work/proj/${name}`, cwd, home).verdict).toBe('no_match');
    const deep = Array.from({ length: 20_000 }, () => 'd').join('/');
    expect(evaluatePathPattern('d/**/x', `/work/proj/${deep}/x`, cwd, home).verdict).toBe('match');
    const long = `/work/proj/${'a'.repeat(200_000)}`;
    expect(evaluatePathPattern('*a'.repeat(100), long, cwd, home)).toEqual({
      verdict: 'fail_open',
      why: 'the pattern and the path are too long to match within bounds',
    });
  });
});
