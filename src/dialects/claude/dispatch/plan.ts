// `fire --dry-run` for claude (claude.md §6): every handler of the event with its three
// verdicts (matcher, `if`, gate) and whether hookctl could run it. Nothing runs, nothing is recorded.
import type { PlanEntry, PlanRequest } from '../../types.js';
import { prepare } from './dispatch.js';

export interface ClaudePlanEntry extends PlanEntry {
  handler_type: string;
  if: { rule: string; verdict: string; why: string } | null;
  runnable: boolean;
}

export async function planClaude(req: PlanRequest): Promise<ClaudePlanEntry[]> {
  const { selections } = await prepare(req, true);
  return selections.map((s) => ({
    name: s.decl.name,
    source: s.decl.source,
    mode: s.info.async ? 'async' : 'sync',
    handler_type: s.info.handler_type,
    order: s.decl.order,
    status: s.status,
    why: s.why ?? null,
    matched: s.selected,
    fields: s.matcher !== undefined ? [s.matcher] : [],
    if: s.if,
    runnable: s.info.runnable,
  }));
}
