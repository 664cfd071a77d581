// The CompozyOS event catalog (SPEC §2.5) of the selected release (SPEC §10, release-selection.ts):
// which events exist, their family, whether they may run sync, what a deny does, their guard,
// their matcher fields and the payload field each reads. Loads only the small generated catalog
// (releases.generated.ts); payload and patch types live in payload-types.ts.
import type { EventRow } from '../types.js';
import { selectedCompozyRelease } from './release-selection.js';
import { eventInRelease, releaseCatalog } from './releases.js';

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
  /** Matcher field → the payload path it reads (dots for nested objects), for every matcher field. */
  matcher_payload_fields: Readonly<Record<string, string>>;
}

/**
 * Autonomy correlation fields, written under `matcher.autonomy` in every source (SPEC §2.2).
 * scripts/gen-schemas.mjs (plain Node, cannot import TypeScript) mirrors this list;
 * validate-schemas.test.ts holds the shipped schemas to it.
 */
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

/** The event in the selected release; undefined when that release does not have it. */
export function compozyEvent(name: string): CompozyEvent | undefined {
  return releaseCatalog(selectedCompozyRelease()).event(name);
}

/** Every event of the selected release, in catalog order. */
export function compozyEvents(): readonly CompozyEvent[] {
  return releaseCatalog(selectedCompozyRelease()).events;
}

/** Family names of the selected release, in catalog order. */
export function compozyFamilies(): string[] {
  return Object.keys(releaseCatalog(selectedCompozyRelease()).families);
}

/** The matcher fields a family accepts in the selected release; undefined for a family it lacks. */
export function familyMatcherFields(family: string): readonly string[] | undefined {
  const families = releaseCatalog(selectedCompozyRelease()).families;
  return Object.hasOwn(families, family) ? families[family] : undefined;
}

/**
 * Every matcher field some event of the selected release accepts, plus `agent_type`, which is
 * known but accepted by no family (so setting it fails as "not valid for event", not as an
 * unknown key).
 */
export function knownMatcherFields(): ReadonlySet<string> {
  return releaseCatalog(selectedCompozyRelease()).knownMatcherFields;
}

/**
 * Why an event the catalog knows is not in the selected release (SPEC §10): `hooks: invalid hook
 * event "sandbox.prepare" (removed in CompozyOS v0.3.0)`, or `(added in CompozyOS <v>)`. Undefined
 * for an event of the release, and for one no release has had.
 */
export function eventOutsideRelease(name: string): string | undefined {
  const found = eventInRelease(name, selectedCompozyRelease());
  return found.kind === 'present' || found.kind === 'unknown' ? undefined : found.message;
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
