// What `hooks list` and `hooks info` add for a codex declaration (codex.md §7): the SPEC fields
// codex shapes its own way (matcher as the group's string, priority null) and the trust view.
// Light on purpose: the dialect's index imports it.
import type { Heading } from '../../report.js';
import type { Declaration, OrderedDeclaration } from '../../declarations/model.js';
import type { CodexHandlerInfo } from './model.js';

const codexInfo = (d: Declaration): CodexHandlerInfo => d.extra as unknown as CodexHandlerInfo;

export function codexListFields(d: Declaration): Record<string, unknown> {
  const x = codexInfo(d);
  return {
    priority: null,
    required: false,
    matcher: x.group_matcher,
    handler_type: x.handler_type,
    label: x.label,
    status_message: x.status_message,
    plugin: x.plugin?.id ?? null,
    key: x.key,
    trust: x.trust,
    current_hash: x.current_hash,
    trusted_hash: x.trusted_hash,
    runnable: x.runnable,
  };
}

export function codexInfoFields(d: Declaration): Record<string, unknown> {
  const x = codexInfo(d);
  return { ...codexListFields(d), origin: x.origin, handler: x.handler, hash_input: x.hash_input };
}

/** `list --untrusted` ([ours]): Codex skips the hook until the user reviews it. */
export function codexNeedsReview(d: Declaration): boolean {
  const trust = codexInfo(d)?.trust;
  return trust === 'untrusted' || trust === 'modified';
}

/** Name and Event are never cut; the Label gives way first. */
export const CODEX_LIST_COLUMNS: readonly Heading[] = [
  'Order',
  { head: 'Name', identifier: true },
  { head: 'Event', identifier: true },
  { head: 'Matcher', dropOrder: 3 },
  { head: 'Trust', dropOrder: 2 },
  { head: 'Label', cutFirst: true, dropOrder: 1 },
];

export function codexListRow(d: OrderedDeclaration): string[] {
  const x = codexInfo(d);
  return [d.order === null ? '-' : String(d.order), d.name ?? '', d.event, x.group_matcher ?? '-', x.trust, x.label];
}

/** The human `hooks info` rows of a codex hook: what Codex checks before it runs one (§2.5, §2.6). */
export function codexInfoRows(info: Readonly<Record<string, unknown>>): [string, string][] {
  const text = (v: unknown) => (typeof v === 'string' ? v : '-');
  const rows: [string, string][] = [
    ['trust', text(info.trust)],
    ['key', text(info.key)],
    ['hash', text(info.current_hash)],
    ['trusted', info.trusted_hash === null ? '(none)' : text(info.trusted_hash)],
    ['hash_input', text(info.hash_input)],
  ];
  if (typeof info.status_message === 'string') rows.push(['spinner', info.status_message]); // statusMessage
  return rows;
}
