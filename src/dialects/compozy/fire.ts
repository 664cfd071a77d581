// `hooks fire` for CompozyOS events (SPEC §3): the payload filled as the runtime would, the dry-run
// plan, and the dispatch (sync chain, guards, async pool) with the executor the caller injects.
// Imported only by `fire`, so list, info, events and validate never load dispatch code.
import { planStatus } from '../../declarations/plan-status.js';
import type { DispatchRequest, DispatchResult, PlanEntry, PlanRequest } from '../types.js';
import { dispatchCompozy, planDispatch } from './dispatch/dispatch.js';
import { compozyEvent, type CompozyEvent } from './events.js';
import { payloadType } from './payload-types.js';

type Payload = Record<string, unknown>;

/**
 * Base fields a runtime always sets (`event`, `timestamp`, `session_id`, `workspace`), filled only
 * when the caller left them out and only where the event's payload type has the field: a hook
 * must never see a field its runtime would not send (automation payloads have none of these).
 */
export function fillCompozyBase(
  payload: Payload,
  payloadFields: Record<string, string>,
  base: { event: string; sessionId?: string; workspace: string; now?: Date },
): Payload {
  const out: Payload = { ...payload };
  const fill = (field: string, value: unknown) => {
    if (out[field] === undefined && value !== undefined && Object.hasOwn(payloadFields, field)) out[field] = value;
  };
  fill('event', base.event);
  fill('timestamp', (base.now ?? new Date()).toISOString());
  fill('session_id', base.sessionId);
  fill('workspace', base.workspace);
  return out;
}

function eventOf(name: string): CompozyEvent {
  const event = compozyEvent(name);
  if (!event) throw new Error(`compozy: no event "${name}"`); // the fire use case chose this dialect by it
  return event;
}

function filled(event: CompozyEvent, req: { payload: Payload; sessionId?: string; loc: { workspace: string } }) {
  return fillCompozyBase(req.payload, payloadType(event.payload)?.fields ?? {}, {
    event: event.name,
    sessionId: req.sessionId,
    workspace: req.loc.workspace,
  });
}

export function planCompozy(req: PlanRequest): PlanEntry[] {
  const event = eventOf(req.event);
  // Matchers see the payload fire would dispatch (e.g. `workspace_root` reads the filled workspace).
  const sessionId = req.sessionId ?? (typeof req.payload.session_id === 'string' ? req.payload.session_id : undefined);
  const plan = planDispatch(event, filled(event, { ...req, sessionId }), req.declarations);
  return plan.map((entry, i) => ({ ...entry, ...planStatus(req.declarations[i]!) }));
}

export async function dispatchCompozyFire(req: DispatchRequest): Promise<DispatchResult> {
  const event = eventOf(req.event);
  const result = await dispatchCompozy({
    event,
    payload: filled(event, req),
    declarations: req.declarations.filter((d) => d.status === 'active'),
    executor: req.executor,
    depth: req.depth,
    sessionId: req.sessionId,
    dispatchId: req.dispatchId,
    workspace: req.loc.workspace,
    invokingEnv: req.env,
    onRecord: req.onRecord,
    observer: req.observer,
  });
  return {
    verdict: result.verdict,
    deny_reason: result.deny_reason,
    error: result.error,
    payload: result.payload,
    runs: result.runs,
    async_queued: result.async_queued,
  };
}
