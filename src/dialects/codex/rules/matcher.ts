// Group matchers (codex.md §4): match-all, an exact `|` list, or a Rust-syntax regular expression
// searched unanchored. Pure; validation (codex_invalid_matcher) and dispatch both read it.

export type CodexMatcher =
  { kind: 'all' } | { kind: 'names'; names: readonly string[] } | { kind: 'regex'; pattern: string; regex: RegExp };

export type CompiledMatcher = { ok: true; matcher: CodexMatcher } | { ok: false; why: string };

/** Only ASCII letters, digits, `_` and `|`: a list of exact names (rule 2). */
const EXACT = /^[A-Za-z0-9_|]+$/;

/** Constructs Rust's `regex` rejects although JavaScript accepts them (rule 3). */
const RUST_REJECTS: readonly [RegExp, string][] = [
  [/\(\?<?[=!]/, 'look-around is not supported'],
  [/\\[1-9]/, 'back-references are not supported'],
];

/** Compiles a group's matcher as written; `undefined` (absent), `""` and `*` match everything. */
export function compileCodexMatcher(matcher: string | undefined | null): CompiledMatcher {
  if (matcher === undefined || matcher === null || matcher === '' || matcher === '*') {
    return { ok: true, matcher: { kind: 'all' } };
  }
  if (EXACT.test(matcher)) return { ok: true, matcher: { kind: 'names', names: matcher.split('|') } };
  for (const [shape, why] of RUST_REJECTS)
    if (shape.test(withoutEscapedBackslashes(matcher))) return { ok: false, why };
  try {
    return { ok: true, matcher: { kind: 'regex', pattern: matcher, regex: new RegExp(matcher, 'u') } };
  } catch (err) {
    return { ok: false, why: (err as Error).message.replace(/^Invalid regular expression: /, '') };
  }
}

/** Whether a compiled matcher accepts the event's matcher field value (absent: `undefined`). */
export function codexMatcherMatches(m: CodexMatcher, value: unknown): boolean {
  if (m.kind === 'all') return true;
  if (typeof value !== 'string') return false;
  if (m.kind === 'names') return m.names.includes(value);
  m.regex.lastIndex = 0;
  return m.regex.test(value);
}

/** `\\1` is a backslash then `1`, not a back-reference: drop escaped backslashes before looking. */
function withoutEscapedBackslashes(pattern: string): string {
  return pattern.replace(/\\\\/g, '');
}
