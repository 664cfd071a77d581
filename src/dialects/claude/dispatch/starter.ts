// `hooks test --init` for claude events: each case's payload gets a value of the group matcher's
// field that the matcher accepts (claude.md §4.1), so the case runs the hook it is written for.
// A tool_name of "" would match only match-all groups, and a starter whose cases run nothing
// teaches nothing.
import type { OrderedDeclaration } from '../../../declarations/model.js';
import { claudeEvent } from '../catalog.js';
import { matcherAccepts, matcherForm } from '../rules/match.js';
import { regexSamples } from '../../../matching/regex-samples.js';

export function claudeStarterPayload(d: OrderedDeclaration, payload: Record<string, unknown>): Record<string, unknown> {
  const event = claudeEvent(d.event);
  const field = event?.matcher_field;
  if (event === undefined || field === null || field === undefined) return payload;
  const matcher = (d.matcher as Record<string, unknown>)[field];
  if (typeof matcher !== 'string') return payload; // match-all: any value runs it
  const value = sampleValue(matcher, event.narrow_matcher);
  return value === undefined ? payload : { ...payload, [field]: value };
}

/** A value `matcher` accepts: its first name, or one read off a simple regex; undefined if none found. */
export function sampleValue(matcher: string, narrow: boolean): string | undefined {
  const form = matcherForm(matcher, narrow);
  if (form.kind === 'all') return undefined;
  if (form.kind === 'names') return form.names[0];
  const candidates = regexSamples(form.source);
  return candidates.find((c) => matcherAccepts(matcher, narrow, c));
}
