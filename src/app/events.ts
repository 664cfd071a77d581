// What `hooks events` prints and returns (SPEC §6): one row per event of both dialects, and the
// detail of one event for `hooks events EVENT`. The list needs only the small catalog; payload and
// patch types are imported on demand for the detail.
import type { Dialect } from '../declarations/model.js';
import { compozyEvent, compozyEvents, type CompozyEvent, type GuardName } from '../dialects/compozy/events.js';
import {
  COSH_OUTPUT_FIELDS,
  COSH_OUTPUT_TYPE,
  coshEvent,
  coshEvents,
  coshInputFields,
  coshOutputFieldApplied,
  coshPayloadTypeName,
  type CoshEvent,
} from '../dialects/cosh/events.js';

/** Family shown for every cosh event: cosh has no families. */
export const COSH_FAMILY = 'cosh';

export interface EventRow {
  event: string;
  dialect: Dialect;
  family: string;
  /**
   * compozy: the catalog's sync_eligible. cosh: always true, because cosh hooks always run in
   * order and are awaited.
   */
  sync_eligible: boolean;
  /** compozy: what a deny does (error | stop | null). cosh: `block` when interceptable, else null. */
  deny: 'error' | 'stop' | 'block' | null;
  /** Type name of what the hook receives. cosh: `<Event>Input`, cosh-core's own type names. */
  payload: string;
  /** Type name of what the hook answers. cosh: `HookOutput`, the decision object, for every event. */
  patch: string;
}

export interface EventRowFilter {
  dialect?: Dialect;
  /** Exact family name; `cosh` selects the cosh events. */
  family?: string;
  syncOnly?: boolean;
}

export interface PayloadFieldRow {
  name: string;
  type: string;
  enum?: string[];
  /** cosh only: a base field every event carries. */
  base?: boolean;
}

export interface PatchFieldRow {
  name: string;
  type: string;
  /** The engine acts on the field (compozy: listed in `applied`; cosh: see coshOutputFieldApplied). */
  applied: boolean;
  /** compozy: where an applied field lands when not on the payload field of the same name. */
  applied_to?: string;
}

export interface EventDetail extends EventRow {
  summary: string;
  guard: GuardName | null;
  /** The answer key that denies: compozy `deny`/`cancel`; cosh `decision` when interceptable. */
  deny_field: 'deny' | 'cancel' | 'decision' | null;
  payload_fields: PayloadFieldRow[];
  patch_fields: PatchFieldRow[];
  observation_only: boolean;
  /** compozy: the effective matcher fields; cosh: `tool_name` on the three tool events. */
  matcher_fields: readonly string[];
}

/** compozy rows first, in catalog order, then cosh rows in seed order. */
export function eventRows(opts: EventRowFilter = {}): EventRow[] {
  const rows: EventRow[] = [];
  if (opts.dialect !== 'cosh') rows.push(...compozyEvents().map(compozyRow));
  if (opts.dialect !== 'compozy') rows.push(...coshEvents().map(coshRow));
  return rows.filter(
    (r) => (opts.family === undefined || r.family === opts.family) && (!opts.syncOnly || r.sync_eligible),
  );
}

/** Detail of one event of either dialect, or undefined when neither catalog has it. */
export async function eventDetail(name: string): Promise<EventDetail | undefined> {
  const compozy = compozyEvent(name);
  if (compozy) return compozyDetail(compozy);
  const cosh = coshEvent(name);
  return cosh && coshDetail(cosh);
}

function compozyRow(e: CompozyEvent): EventRow {
  return {
    event: e.name,
    dialect: 'compozy',
    family: e.family,
    sync_eligible: e.sync_eligible,
    deny: e.deny,
    payload: e.payload,
    patch: e.patch,
  };
}

function coshRow(e: CoshEvent): EventRow {
  return {
    event: e.name,
    dialect: 'cosh',
    family: COSH_FAMILY,
    sync_eligible: true,
    deny: e.interceptable ? 'block' : null,
    payload: coshPayloadTypeName(e.name),
    patch: COSH_OUTPUT_TYPE,
  };
}

async function compozyDetail(e: CompozyEvent): Promise<EventDetail> {
  const { payloadType, patchType } = await import('../dialects/compozy/payload-types.js');
  const payload = payloadType(e.payload);
  const patch = patchType(e.patch);
  if (!payload || !patch) throw new Error(`events: catalog types missing for "${e.name}"`);
  return {
    ...compozyRow(e),
    summary: e.summary,
    guard: e.guard,
    deny_field: e.deny_field,
    payload_fields: Object.entries(payload.fields).map(([name, type]) => {
      const values = payload.enums?.[name];
      return values ? { name, type, enum: [...values] } : { name, type };
    }),
    patch_fields: Object.entries(patch.fields).map(([name, type]) => {
      const applied = !patch.observation_only && patch.applied.includes(name);
      const to = patch.applied_to?.[name];
      return applied && to ? { name, type, applied, applied_to: to } : { name, type, applied };
    }),
    observation_only: patch.observation_only,
    matcher_fields: e.matcher_fields,
  };
}

function coshDetail(e: CoshEvent): EventDetail {
  return {
    ...coshRow(e),
    summary: e.summary,
    guard: null,
    deny_field: e.interceptable ? 'decision' : null,
    payload_fields: (coshInputFields(e.name) ?? []).map((f) =>
      f.enum
        ? { name: f.name, type: f.type, enum: [...f.enum], base: f.base }
        : { name: f.name, type: f.type, base: f.base },
    ),
    patch_fields: COSH_OUTPUT_FIELDS.map((f) => ({
      name: f.name,
      type: f.type,
      applied: coshOutputFieldApplied(e, f.name),
    })),
    observation_only: false,
    matcher_fields: e.tool_matcher ? ['tool_name'] : [],
  };
}
