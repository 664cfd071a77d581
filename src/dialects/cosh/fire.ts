// `hooks fire` for cosh events (SPEC §4.4): the payload filled with cosh-core's base fields, the
// dry-run plan (a regex on tool_name for the three tool events), and the dispatch (every hook in
// order, decisions combined) with the executor the caller injects. Imported only by `fire`.
import { planStatus } from '../../declarations/plan-status.js';
import type { DispatchRequest, DispatchResult, PlanEntry, PlanRequest } from '../types.js';
import { dispatchCosh, fillCoshPayload } from './dispatch.js';
import { coshEvent } from './events.js';
import { coshMatcherMatches } from './matcher.js';

export function planCosh(req: PlanRequest): PlanEntry[] {
  const applies = coshEvent(req.event)?.tool_matcher ?? false;
  return req.declarations.map((d) => {
    const pattern = typeof d.matcher.tool_name === 'string' ? d.matcher.tool_name : undefined;
    const fields =
      applies && pattern !== undefined
        ? [
            {
              field: 'tool_name',
              pattern,
              value: req.payload.tool_name,
              matched: coshMatcherMatches(pattern, req.payload.tool_name),
            },
          ]
        : [];
    return {
      name: d.name,
      source: d.source,
      mode: d.mode,
      order: d.order,
      matched: d.status === 'active' && d.enabled && fields.every((f) => f.matched),
      fields,
      ...planStatus(d),
    };
  });
}

export async function dispatchCoshFire(req: DispatchRequest): Promise<DispatchResult> {
  const payload = fillCoshPayload(req.payload, {
    event: req.event,
    sessionId: req.sessionId,
    workspace: req.loc.workspace,
    coshHome: req.loc.coshHome,
    now: new Date(),
  });
  const result = await dispatchCosh({
    event: req.event,
    payload,
    declarations: req.declarations.filter((d) => d.status === 'active'),
    executor: req.executor,
    sessionId: req.sessionId,
    dispatchId: req.dispatchId,
    depth: req.depth,
    invokingEnv: req.env,
    workspace: req.loc.workspace,
    coshHome: req.loc.coshHome,
    onRecord: req.onRecord,
    observer: req.observer,
    onNotification: req.onNotification,
  });
  return {
    verdict: result.verdict,
    deny_reason: null,
    error: null,
    payload: result.payload,
    runs: result.runs,
    async_queued: 0,
    reason: result.reason,
    system_message: result.system_message,
    additional_context: result.additional_context,
    notifications: result.notifications,
  };
}
