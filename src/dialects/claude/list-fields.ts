// What `hooks list` and `hooks info` add for a claude declaration (claude.md §7): the list fields
// that differ from the other dialects (matcher as the group's string, priority null) and the
// extra columns; info adds the handler as written.
import type { Declaration } from '../../declarations/model.js';
import type { ClaudeExtra } from './declaration.js';

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
  };
}

export function claudeInfoFields(d: Declaration): Record<string, unknown> {
  return { ...claudeListFields(d), origin: claudeExtra(d).origin, handler: claudeExtra(d).handler };
}

/** Human columns of `hooks list --dialect claude`. */
export const CLAUDE_LIST_COLUMNS = ['Order', 'Name', 'Event', 'Matcher', 'Type', 'Label'] as const;

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
export function claudeHookOfAgent(d: Declaration, agent: string): boolean {
  return claudeExtra(d).agent === agent;
}
