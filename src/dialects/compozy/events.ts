// The CompozyOS event catalog (SPEC §2.5): which events exist, their family, whether they may run
// sync, what a deny does, their guard and their matcher fields. Loads only the small generated
// catalog; payload and patch types live in compozy-types.ts.
import type { EventRow } from '../types.js';
import { COMPOZY_EVENTS, COMPOZY_FAMILIES } from './events.generated.js';

/** The checks that can reject a sync patch (SPEC §3.1 step 4). */
export type GuardName =
  | 'workspace_immutable'
  | 'task_run_claim'
  | 'spawn_subset'
  | 'permission_escalation'
  | 'participation_no_widening'
  | 'tool_id_immutable';

/** `error`: a deny ends the dispatch denied; `stop`: it only stops the sync chain; null: no deny control. */
export type DenyKind = 'error' | 'stop';

/** One family entry of compozy-events.json, as generated. */
export interface CompozyFamilyData {
  matcher_fields: readonly string[];
}

/** One event entry of compozy-events.json, as generated (key for key). */
export interface CompozyEventData {
  name: string;
  family: string;
  sync_eligible: boolean;
  deny: DenyKind | null;
  deny_field: 'deny' | 'cancel' | null;
  guard: GuardName | null;
  /** Present only where the event replaces its family's list. */
  matcher_fields?: readonly string[];
  payload: string;
  patch: string;
  summary: string;
}

export interface CompozyEvent {
  name: string;
  family: string;
  sync_eligible: boolean;
  deny: DenyKind | null;
  deny_field: 'deny' | 'cancel' | null;
  guard: GuardName | null;
  payload: string;
  patch: string;
  summary: string;
  /** Effective: the event's override, else its family's. */
  matcher_fields: readonly string[];
}

/** Autonomy correlation fields, written under `matcher.autonomy` in every source (SPEC §2.2). */
export const AUTONOMY_FIELDS: readonly string[] = [
  'task_id',
  'run_id',
  'loop_run_id',
  'loop_name',
  'node_id',
  'workflow_id',
  'participation_channel',
  'coordinator_session_id',
  'parent_session_id',
  'root_session_id',
  'child_session_id',
  'spawn_role',
  'release_reason',
];

/**
 * Events SKILL.md may still name, mapped to their replacement (SPEC §2.4). A null-prototype
 * object, so indexing it with any string (`constructor` included) is safe.
 */
export const REMOVED_LEGACY_EVENTS: Readonly<Record<string, string | undefined>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    on_session_created: 'session.post_create',
    on_session_stopped: 'session.post_stop',
  }),
);

let byName: Map<string, CompozyEvent> | undefined;
let inOrder: readonly CompozyEvent[] | undefined;

function index(): Map<string, CompozyEvent> {
  if (byName) return byName;
  const events = COMPOZY_EVENTS.map(toEvent);
  inOrder = events;
  byName = new Map(events.map((e) => [e.name, e]));
  return byName;
}

function toEvent(d: CompozyEventData): CompozyEvent {
  return {
    name: d.name,
    family: d.family,
    sync_eligible: d.sync_eligible,
    deny: d.deny,
    deny_field: d.deny_field,
    guard: d.guard,
    payload: d.payload,
    patch: d.patch,
    summary: d.summary,
    matcher_fields: d.matcher_fields ?? COMPOZY_FAMILIES[d.family]!.matcher_fields,
  };
}

export function compozyEvent(name: string): CompozyEvent | undefined {
  return index().get(name);
}

/** Every event, in catalog order. */
export function compozyEvents(): readonly CompozyEvent[] {
  index();
  return inOrder!;
}

/** Family names, in catalog order. */
export function compozyFamilies(): string[] {
  return Object.keys(COMPOZY_FAMILIES);
}

/** The matcher fields a family accepts; undefined for an unknown family. */
export function familyMatcherFields(family: string): readonly string[] | undefined {
  return Object.hasOwn(COMPOZY_FAMILIES, family) ? COMPOZY_FAMILIES[family]!.matcher_fields : undefined;
}

/**
 * Every matcher field some event accepts, plus `agent_type`, which is known but accepted by no
 * family (so setting it fails as "not valid for event", not as an unknown key).
 */
export const KNOWN_MATCHER_FIELDS: ReadonlySet<string> = knownMatcherFields();

function knownMatcherFields(): Set<string> {
  const known = new Set<string>();
  for (const family of Object.values(COMPOZY_FAMILIES)) for (const f of family.matcher_fields) known.add(f);
  for (const e of COMPOZY_EVENTS) for (const f of e.matcher_fields ?? []) known.add(f);
  known.add('agent_type');
  return known;
}

/** One row of `hooks events`: the catalog entry's type names (SPEC §6). */
export function compozyEventRow(e: CompozyEvent): EventRow {
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
