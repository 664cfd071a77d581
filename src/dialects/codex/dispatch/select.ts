// Which codex handlers a fire runs (codex.md §5.1): the event's `active` ones whose group matcher
// matches, in dispatch order; untrusted and modified ones are skipped unless --trust-all. Pure.
import type { OrderedDeclaration } from '../../../declarations/model.js';
import type { CodexEventData } from '../catalog-types.js';
import type { CodexHandlerInfo } from '../model.js';
import { codexMatcherMatches, compileCodexMatcher } from '../rules/matcher.js';

export interface CodexMatcherField {
  field: string;
  pattern: string | null;
  value: unknown;
  matched: boolean;
}

export interface CodexSelection {
  decl: OrderedDeclaration;
  info: CodexHandlerInfo;
  /** The group matcher against the event's matcher field; undefined on events without one. */
  matcher?: CodexMatcherField;
  /** Active and matching. */
  selected: boolean;
  /** Why a selected hook is not run for want of trust (§5.1); undefined when it may run. */
  trustSkip?: string;
}

/** `untrusted: …` / `modified: …`, the record's `why` of a trust skip (§5.1). */
export function trustSkipWhy(info: CodexHandlerInfo): string | undefined {
  if (info.trust === 'untrusted') return `untrusted: hook has not been trusted (current hash ${info.current_hash})`;
  if (info.trust === 'modified') {
    return `modified: hook changed since it was trusted (trusted ${info.trusted_hash ?? ''}, current ${info.current_hash})`;
  }
  return undefined;
}

export function selectCodexHandlers(
  event: CodexEventData,
  payload: Record<string, unknown>,
  declarations: readonly OrderedDeclaration[],
  trustAll: boolean,
): CodexSelection[] {
  return declarations.map((decl) => {
    const info = decl.extra as unknown as CodexHandlerInfo;
    let matched = true;
    let matcher: CodexMatcherField | undefined;
    if (event.matcher_field !== null) {
      const field = event.matcher_field;
      const compiled = compileCodexMatcher(info.group_matcher);
      const value = payload[field];
      matched = compiled.ok && codexMatcherMatches(compiled.matcher, value);
      matcher = { field, pattern: info.group_matcher, value: value ?? null, matched };
    }
    const selected = decl.status === 'active' && matched;
    const sel: CodexSelection = { decl, info, selected };
    if (matcher !== undefined) sel.matcher = matcher;
    const why = trustAll ? undefined : trustSkipWhy(info);
    if (why !== undefined) sel.trustSkip = why;
    return sel;
  });
}
