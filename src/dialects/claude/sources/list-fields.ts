// What `hooks list` and `hooks info` add for a claude declaration (claude.md §7): the list fields
// that differ from the other dialects (matcher as the group's string, priority null) and the
// extra columns; info adds the handler as written.
import type { Heading } from '../../../report.js';
import type { Declaration } from '../../../declarations/model.js';
import { claudeEvent } from '../catalog.js';
import type { ClaudeExtra } from './declaration.js';
import { groupMatcherVerdict } from '../rules/match.js';

// Light on purpose (the dialect's index imports it): declaration.ts and its rules are not loaded.
const claudeExtra = (d: Declaration): ClaudeExtra => d.extra as unknown as ClaudeExtra;

export function claudeListFields(d: Declaration): Record<string, unknown> {
  const x = claudeExtra(d);
  return {
    priority: null,
    matcher: x.group_matcher,
    handler_type: x.handler_type,
    if: x.if,
    once: x.once,
    async_rewake: x.async_rewake,
    plugin: x.plugin?.id ?? null,
    skill: x.skill ?? null,
    agent: x.agent ?? null,
    runnable: x.runnable,
    label: x.label,
    intercepted_by: x.intercepted_by ?? [],
  };
}

export function claudeInfoFields(d: Declaration): Record<string, unknown> {
  return { ...claudeListFields(d), origin: claudeExtra(d).origin, handler: claudeExtra(d).handler };
}

/** Human columns of `hooks list --dialect claude`. */
/** Name and Event are never cut; the Label gives way first, and is left out before Type and Matcher. */
export const CLAUDE_LIST_COLUMNS: readonly Heading[] = [
  'Order',
  { head: 'Name', identifier: true },
  { head: 'Event', identifier: true },
  { head: 'Matcher', dropOrder: 3 },
  { head: 'Type', dropOrder: 2 },
  { head: 'Label', cutFirst: true, dropOrder: 1 },
];

export function claudeListRow(d: Declaration & { order: number | null }): string[] {
  const x = claudeExtra(d);
  return [
    d.order === null ? '-' : String(d.order),
    d.name ?? '',
    d.event,
    x.group_matcher ?? '-',
    x.handler_type,
    x.label,
  ];
}

/** `hooks list --agent NAME` on claude hooks: the agent's own hooks. */
/**
 * `hooks list --agent NAME`: the hooks that would run for that agent (SPEC §7.2): its own front
 * matter's, and every hook not written in an agent's front matter, except SubagentStart/Stop
 * groups whose `agent_type` matcher does not match NAME. Another agent's hooks never run for it.
 */
export function claudeHookOfAgent(d: Declaration, agent: string): boolean {
  const own = claudeExtra(d).agent;
  if (own !== undefined) return own === agent;
  const event = claudeEvent(d.event);
  if (event?.matcher_field !== 'agent_type') return true;
  return groupMatcherVerdict(claudeExtra(d).group_matcher, event, { agent_type: agent })?.matched !== false;
}
