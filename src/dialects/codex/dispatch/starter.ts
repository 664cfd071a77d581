// `hooks test --init` for codex events: each case's payload gets a value of the matcher field
// that the group's matcher accepts (codex.md §4), so the case runs the hook it is written for.
import type { OrderedDeclaration } from '../../../declarations/model.js';
import { regexSamples } from '../../../matching/regex-samples.js';
import { codexEvent } from '../catalog.js';
import { codexMatcherMatches, compileCodexMatcher } from '../rules/matcher.js';

export function codexStarterPayload(d: OrderedDeclaration, payload: Record<string, unknown>): Record<string, unknown> {
  const field = codexEvent(d.event)?.matcher_field;
  if (field === null || field === undefined) return payload;
  const written = (d.matcher as Record<string, unknown>)[field];
  if (typeof written !== 'string') return payload; // match-all: any value runs it
  const compiled = compileCodexMatcher(written);
  if (!compiled.ok || compiled.matcher.kind === 'all') return payload;
  const m = compiled.matcher;
  const known = codexEvent(d.event)?.matcher_values ?? [];
  const candidates = m.kind === 'names' ? m.names : [...known, ...regexSamples(m.pattern)];
  const value = candidates.find((c) => codexMatcherMatches(m, c));
  return value === undefined ? payload : { ...payload, [field]: value };
}
