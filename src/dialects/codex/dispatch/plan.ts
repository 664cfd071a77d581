// `fire --dry-run` for codex (codex.md §6): every handler of the event with its matcher verdict,
// its status, its trust and whether hookctl would run it. Nothing runs, nothing is recorded.
import type { PlanEntry, PlanRequest } from '../../types.js';
import type { CodexTrust } from '../model.js';
import { MCP_TOOL_WHY, prepareCodex } from './dispatch.js';

export interface CodexPlanEntry extends PlanEntry {
  trust: CodexTrust;
  handler_type: string;
  /** false for mcp_tool, and for untrusted or modified hooks without --trust-all. */
  runnable: boolean;
  /**
   * [ours] What a fire would record as the run's `why` when it skips this hook (§5.1): the trust
   * skip, or why an mcp_tool hook cannot run; null when runnable. `why` stays the status's why.
   */
  skipped_why: string | null;
}

export async function planCodex(req: PlanRequest): Promise<CodexPlanEntry[]> {
  const { selections } = prepareCodex(req);
  return selections.map((s) => ({
    name: s.decl.name,
    source: s.decl.source,
    mode: s.info.async ? 'async' : 'sync',
    order: s.decl.order,
    status: s.decl.status,
    // An active hook's why is the trust or handler reason list and info give; here skipped_why says
    // it, --trust-all counted.
    why: s.decl.status === 'active' ? null : (s.decl.why ?? null),
    trust: s.info.trust,
    handler_type: s.info.handler_type,
    matched: s.selected,
    fields: s.matcher !== undefined ? [s.matcher] : [],
    runnable: s.info.runnable && s.trustSkip === undefined,
    skipped_why: s.trustSkip ?? (s.info.runnable ? null : (s.info.unrunnable_why ?? MCP_TOOL_WHY)),
  }));
}
