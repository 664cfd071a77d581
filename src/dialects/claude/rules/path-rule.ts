// `Edit`, `Write`, `Read` and `NotebookEdit` rules (claude.md §4.2): gitignore-style globs,
// relative to the payload's cwd. `*` and `?` stay within a segment, `**` spans segments, `[...]`
// is a class; a pattern with a `/` is anchored at cwd, one without matches a name at any depth.
// Matched in linear time by glob-match.ts.
import { isAbsolute, relative, resolve } from 'node:path';
import {
  compilePathGlob,
  GlobError,
  globMatches,
  globMatchesPathOrFolder,
  withinMatchBound,
  type CompiledGlob,
} from './glob-match.js';
import { ruleHolds } from '../releases.js';

export interface PathRuleVerdict {
  verdict: 'match' | 'no_match' | 'fail_open';
  why: string;
}

/** Why the pattern cannot compile (a range out of order, `[z-a]`), or undefined when it can. */
export function pathPatternProblem(pattern: string): string | undefined {
  try {
    compilePathGlob(pattern);
    return undefined;
  } catch (err) {
    if (err instanceof GlobError) return err.message;
    throw err;
  }
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
  // Below 2.1.214 one folder name followed by `/**` matches that folder at any depth (§9).
  if (/^[^/]+\/\*\*$/.test(glob) && !glob.startsWith('**') && !ruleHolds('if_dir_anchored')) glob = `**/${glob}`;
  const anchored = glob.includes('/');
  let compiled: CompiledGlob;
  try {
    compiled = compilePathGlob(glob);
  } catch (err) {
    // validate reports it (claude_if_invalid_pattern); a dispatch of the hook lets it run.
    if (err instanceof GlobError) return { verdict: 'fail_open', why: `the pattern does not compile: ${err.message}` };
    throw err;
  }
  if (!withinMatchBound(compiled, rel.length)) {
    return { verdict: 'fail_open', why: 'the pattern and the path are too long to match within bounds' };
  }
  // As in .gitignore, a pattern that matches a folder covers everything inside it.
  const hit = anchored ? globMatchesPathOrFolder(compiled, rel) : segments.some((s) => globMatches(compiled, s));
  return hit
    ? { verdict: 'match', why: `${JSON.stringify(rel)} matches ${JSON.stringify(pattern)}` }
    : { verdict: 'no_match', why: `${JSON.stringify(rel)} does not match ${JSON.stringify(pattern)}` };
}
