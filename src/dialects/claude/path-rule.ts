// `Edit`, `Write`, `Read` and `NotebookEdit` rules (claude.md §4.2): gitignore-style globs,
// relative to the payload's cwd. `*` and `?` stay within a segment, `**` spans segments, `[...]`
// is a class; a pattern with a `/` is anchored at cwd, one without matches a name at any depth.
import { isAbsolute, relative, resolve } from 'node:path';

export interface PathRuleVerdict {
  verdict: 'match' | 'no_match' | 'fail_open';
  why: string;
}

/** A glob as a RegExp over a `/`-separated relative path. */
export function globRegex(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const before = i === 0 || glob[i - 1] === '/';
        i++;
        if (before && glob[i + 1] === '/') {
          out += '(?:[^/]*/)*'; // `**/`: any number of leading folders, none included
          i++;
        } else {
          out += '.*';
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
      } else {
        let body = glob.slice(i + 1, end);
        const negated = body.startsWith('!') || body.startsWith('^');
        if (negated) body = body.slice(1);
        out += `[${negated ? '^/' : ''}${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '\\' && i + 1 < glob.length) {
      out += escapeRegex(glob[++i]!);
    } else {
      out += escapeRegex(c);
    }
  }
  return new RegExp(`^${out}$`);
}

function escapeRegex(c: string): string {
  return /[.+^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/**
 * Whether `filePath` (absolute, or relative to cwd) matches `pattern`. The base is cwd, or $HOME
 * for a `~/` pattern; a path outside the base never matches.
 */
export function evaluatePathPattern(
  pattern: string,
  filePath: unknown,
  cwd: string,
  home: string | undefined,
): PathRuleVerdict {
  if (typeof filePath !== 'string' || filePath === '') {
    return { verdict: 'fail_open', why: 'the tool input has no file path' };
  }
  if (pattern.startsWith('/')) {
    return { verdict: 'fail_open', why: `hookctl does not evaluate patterns with a leading "/"` };
  }
  let base = cwd;
  let glob = pattern;
  if (pattern.startsWith('~/')) {
    if (home === undefined || home === '') return { verdict: 'fail_open', why: 'HOME is not set' };
    base = home;
    glob = pattern.slice(2);
  }
  glob = glob.replace(/^(\.\/)+/, '');
  const absolute = isAbsolute(filePath) ? filePath : resolve(cwd, filePath);
  const rel = relative(base, absolute);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    return { verdict: 'no_match', why: `${JSON.stringify(filePath)} is outside ${base}` };
  }
  const segments = rel.split('/');
  glob = glob.replace(/\/$/, '');
  const anchored = glob.includes('/');
  const re = globRegex(glob);
  // As in .gitignore, a pattern that matches a folder covers everything inside it.
  const hit = anchored
    ? segments.some((_, i) => re.test(segments.slice(0, i + 1).join('/')))
    : segments.some((s) => re.test(s));
  return hit
    ? { verdict: 'match', why: `${JSON.stringify(rel)} matches ${JSON.stringify(pattern)}` }
    : { verdict: 'no_match', why: `${JSON.stringify(rel)} does not match ${JSON.stringify(pattern)}` };
}
