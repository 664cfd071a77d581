// The group matcher of claude.md §4.1: match-all, a list of exact names, or an unanchored
// JavaScript RegExp, compared case-sensitively with the payload field the event names.
import { posix } from 'node:path';
import { compileMatcherRegex as compile } from '../../../matching/regex-cache.js';
import type { ClaudeEventData } from '../catalog-types.js';

/** What the matcher reads of a catalog entry. */
export type MatcherFacts = Pick<ClaudeEventData, 'name' | 'matcher_field' | 'narrow_matcher'>;

export interface MatcherVerdict {
  field: string;
  pattern: string | null;
  value: unknown;
  matched: boolean;
}

const EXACT_CHARS = /^[A-Za-z0-9_ ,|-]*$/;
const NARROW_EXACT_CHARS = /^[A-Za-z0-9_|]*$/;

/** Absent, `""` and `*` match everything, an absent field included. */
export function isMatchAll(matcher: string | null | undefined): boolean {
  return matcher === null || matcher === undefined || matcher === '' || matcher === '*';
}

/** How a matcher reads: every value, a list of exact names, or a regular expression. */
export type MatcherForm = { kind: 'all' } | { kind: 'names'; names: string[] } | { kind: 'regex'; source: string };

export function matcherForm(matcher: string | null | undefined, narrow: boolean): MatcherForm {
  if (isMatchAll(matcher)) return { kind: 'all' };
  const text = matcher as string;
  if (narrow ? NARROW_EXACT_CHARS.test(text) : EXACT_CHARS.test(text)) {
    const names = text
      .split(narrow ? '|' : /[|,]/)
      .map((n) => n.trim())
      .filter((n) => n !== '');
    return { kind: 'names', names };
  }
  return { kind: 'regex', source: text };
}

/** Whether `matcher` accepts `value` (already the compared value: FileChanged's file name). */
export function matcherAccepts(matcher: string | null | undefined, narrow: boolean, value: unknown): boolean {
  const form = matcherForm(matcher, narrow);
  if (form.kind === 'all') return true;
  if (typeof value !== 'string') return false;
  if (form.kind === 'names') return form.names.includes(value);
  const re = compile(form.source); // null: invalid (claude_invalid_matcher), never matches
  return re !== null && re.test(value);
}

/** The value a matcher is compared with: the event's field, for FileChanged its last path segment. */
export function matcherValue(facts: MatcherFacts, payload: Record<string, unknown>): unknown {
  if (facts.matcher_field === null) return undefined;
  const raw = payload[facts.matcher_field];
  if (facts.name === 'FileChanged' && typeof raw === 'string') return posix.basename(raw);
  return raw;
}

/**
 * The group matcher's verdict on a payload; undefined when the event has no matcher field (the
 * matcher is ignored and the group always runs).
 */
export function groupMatcherVerdict(
  matcher: string | null,
  facts: MatcherFacts,
  payload: Record<string, unknown>,
): MatcherVerdict | undefined {
  if (facts.matcher_field === null) return undefined;
  const value = matcherValue(facts, payload);
  return {
    field: facts.matcher_field,
    pattern: matcher,
    value: value === undefined ? null : value,
    matched: matcherAccepts(matcher, facts.narrow_matcher, value),
  };
}
