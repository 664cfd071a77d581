// Guards (SPEC §3.1 step 4): checks that can refuse a sync hook's patch before it is applied. A
// refused patch is recorded `rejected`, is not applied, and the chain goes on.
//
// Each guard sees the payload as it stands before the hook (earlier patches applied) and the
// decoded patch (present fields only, under their catalog names), and returns undefined or one
// line: `hooks: hook patch rejected: hooks: <why>`. The checks follow the runtime's guards.
import type { GuardName } from '../events.js';
import { isPlainObject } from './patch.js';

type Payload = Record<string, unknown>;
type PatchFields = Record<string, unknown>;
export type Guard = (payload: Payload, patch: PatchFields) => string | undefined;

const REJECTED = 'hooks: hook patch rejected: hooks: ';

function reject(why: string): string {
  return REJECTED + why;
}

const q = (s: unknown): string => JSON.stringify(s);

function stringOf(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function numberOf(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** session.pre_resume / session.pre_stop: a patch may not change workspace_id or workspace. */
export function workspaceImmutable(payload: Payload, patch: PatchFields): string | undefined {
  for (const field of ['workspace_id', 'workspace']) {
    if (!Object.hasOwn(patch, field)) continue;
    const before = stringOf(payload[field]);
    if (patch[field] !== before) {
      return reject(`cannot change immutable session ${field} from ${q(before)} to ${q(patch[field])}`);
    }
  }
  return undefined;
}

/** task.run.pre_claim: priority_min may not go down; no blank capability may be added. */
export function taskRunClaim(payload: Payload, patch: PatchFields): string | undefined {
  const criteria = isPlainObject(payload.criteria) ? payload.criteria : {};
  const floor = numberOf(criteria.priority_min);
  if (typeof patch.priority_min === 'number' && patch.priority_min < floor) {
    return reject(`cannot lower task-run claim priority_min from ${floor} to ${patch.priority_min}`);
  }
  const added = Array.isArray(patch.add_required_capabilities) ? patch.add_required_capabilities : [];
  if (added.some((c) => stringOf(c).trim() === '')) return reject('cannot add blank task-run claim capability');
  return undefined;
}

/** The categories of a PermissionSet, in the runtime's check order. */
const PERMISSION_CATEGORIES = [
  'tools',
  'skills',
  'mcp_servers',
  'workspace_paths',
  'network_channels',
  'sandbox_profiles',
] as const;

/**
 * spawn.pre_create: a ttl_seconds the patch sets must be > 0, and the child permissions (the
 * patch's, else the payload's) must be a subset of parent_permissions in every category. Atoms
 * compare trimmed; a blank atom on either side is refused. A missing parent grants nothing.
 */
export function spawnSubset(payload: Payload, patch: PatchFields): string | undefined {
  if (typeof patch.ttl_seconds === 'number' && patch.ttl_seconds <= 0) {
    return reject('cannot set non-positive spawn ttl_seconds');
  }
  const parent = isPlainObject(payload.parent_permissions) ? payload.parent_permissions : {};
  const childSource = Object.hasOwn(patch, 'child_permissions') ? patch.child_permissions : payload.child_permissions;
  const child = isPlainObject(childSource) ? childSource : {};
  for (const category of PERMISSION_CATEGORIES) {
    const why = permissionAtomsWiden(category, parent[category], child[category]);
    if (why !== undefined) return reject(`spawn permission patch rejected: ${why}`);
  }
  return undefined;
}

function permissionAtomsWiden(category: string, parent: unknown, child: unknown): string | undefined {
  const allowed = new Set<string>();
  for (const atom of Array.isArray(parent) ? parent : []) {
    const t = stringOf(atom).trim();
    if (t === '') return `parent ${category} includes a blank permission atom`;
    allowed.add(t);
  }
  for (const atom of Array.isArray(child) ? child : []) {
    const t = stringOf(atom).trim();
    if (t === '') return `child ${category} includes a blank permission atom`;
    if (!allowed.has(t)) return `child ${category} permission atom ${q(t)} widens parent permissions`;
  }
  return undefined;
}

/**
 * Deny-like permission decisions: block, blocked, deny, denied, reject, rejected, or a `block-`,
 * `deny-`, `reject-` prefix; trimmed, any case.
 */
export function isDenyLikeDecision(decision: unknown): boolean {
  const clean = stringOf(decision).trim().toLowerCase();
  if (['block', 'blocked', 'deny', 'denied', 'reject', 'rejected'].includes(clean)) return true;
  return clean.startsWith('block-') || clean.startsWith('deny-') || clean.startsWith('reject-');
}

/** The decision a permission patch leaves: `deny: true` wins, then `decision`, else unchanged. */
function permissionDecisionAfter(payload: Payload, patch: PatchFields): unknown {
  if (patch.deny === true) return 'deny';
  if (Object.hasOwn(patch, 'decision')) return patch.decision;
  return payload.decision;
}

/** permission.request: a deny-like decision may not become one that is not deny-like. */
export function permissionEscalation(payload: Payload, patch: PatchFields): string | undefined {
  if (isDenyLikeDecision(payload.decision) && !isDenyLikeDecision(permissionDecisionAfter(payload, patch))) {
    return reject('permission escalation blocked');
  }
  return undefined;
}

/** tool.pre_call: a patch may not change tool_id. */
export function toolIdImmutable(payload: Payload, patch: PatchFields): string | undefined {
  if (!Object.hasOwn(patch, 'tool_id')) return undefined;
  const before = stringOf(payload.tool_id);
  if (patch.tool_id === before) return undefined;
  return reject(`cannot change immutable tool_id from ${q(before)} to ${q(patch.tool_id)}`);
}

// ---------------------------------------------------------------------------------------------
// network.participation.pre_resolve: the participation request may only narrow.
//
// Narrowest is `local` mode (an absent mode means local): a patch to local is always accepted.
// A patch to `live` needs a current request that is already live, with the same channel_strategy
// and channel_id, and bounds that only tighten: the same bounds present, counts and wall times
// not raised, coalesce_window not shortened. A missing current request may only become local.

const PARTICIPATION_MODES = ['local', 'live'];
const CHANNEL_STRATEGIES = ['named', 'run', 'loop_run'];
const COUNT_BOUNDS = ['max_wakes', 'max_input_tokens', 'max_output_tokens', 'max_wake_depth'];
const MAX_DURATION_BOUNDS = ['max_wake_wall_time', 'max_total_wall_time'];
const MIN_DURATION_BOUNDS = ['coalesce_window'];

interface NormalRequest {
  mode: string;
  channel_strategy: string | undefined;
  channel_id: string | undefined;
  bounds: Record<string, unknown> | undefined;
}

export function participationNoWidening(payload: Payload, patch: PatchFields): string | undefined {
  if (!isPlainObject(patch.request)) return undefined;
  const why = participationWidens(payload.request, patch.request);
  return why === undefined ? undefined : reject(`network participation patch rejected: ${why}`);
}

function participationWidens(currentRaw: unknown, patchedRaw: Record<string, unknown>): string | undefined {
  const patched = normaliseRequest(patchedRaw);
  if (typeof patched === 'string') return `invalid patched request: ${patched}`;
  if (!isPlainObject(currentRaw)) {
    return patched.mode === 'local' ? undefined : 'a missing request can only be narrowed to local mode';
  }
  const current = normaliseRequest(currentRaw);
  if (typeof current === 'string') return `invalid current request: ${current}`;
  if (patched.mode === 'local') return undefined;
  if (current.mode !== 'live') return `cannot widen ${q(current.mode)} participation to live mode`;
  if (
    current.channel_strategy === undefined ||
    current.channel_strategy !== patched.channel_strategy ||
    current.channel_id !== patched.channel_id
  ) {
    return 'cannot change live channel strategy or identity';
  }
  return boundsWiden(current.bounds, patched.bounds);
}

function optionalTrimmed(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t === '' ? undefined : t;
}

function normaliseRequest(raw: Record<string, unknown>): NormalRequest | string {
  const mode = optionalTrimmed(raw.mode) ?? 'local';
  if (!PARTICIPATION_MODES.includes(mode)) return `invalid mode ${q(mode)}`;
  const strategy = optionalTrimmed(raw.channel_strategy);
  if (strategy !== undefined && !CHANNEL_STRATEGIES.includes(strategy)) {
    return `invalid channel_strategy ${q(strategy)}`;
  }
  return {
    mode,
    channel_strategy: strategy,
    channel_id: optionalTrimmed(raw.channel_id),
    bounds: isPlainObject(raw.bounds) ? raw.bounds : undefined,
  };
}

function boundsWiden(
  current: Record<string, unknown> | undefined,
  patched: Record<string, unknown> | undefined,
): string | undefined {
  if (current === undefined || patched === undefined) {
    return current === patched ? undefined : 'cannot add or remove live bounds without their resolved defaults';
  }
  const present = (b: Record<string, unknown>, f: string): boolean => b[f] !== undefined && b[f] !== null;
  for (const field of [...COUNT_BOUNDS, ...MAX_DURATION_BOUNDS, ...MIN_DURATION_BOUNDS]) {
    const has = [present(current, field), present(patched, field)];
    if (has[0] !== has[1]) return `cannot add or remove bound ${field}`;
    if (!has[0]) continue;
    if (COUNT_BOUNDS.includes(field)) {
      const [c, p] = [numberOf(current[field]), numberOf(patched[field])];
      if (p > c) return `bound ${field} cannot increase from ${c} to ${p}`;
      continue;
    }
    const c = parseDurationNs(stringOf(current[field]));
    if (c === undefined) return `parse current bound ${field}: invalid duration ${q(current[field])}`;
    const p = parseDurationNs(stringOf(patched[field]));
    if (p === undefined) return `parse patched bound ${field}: invalid duration ${q(patched[field])}`;
    if (MAX_DURATION_BOUNDS.includes(field) && p > c) {
      return `bound ${field} cannot increase from ${current[field]} to ${patched[field]}`;
    }
    if (MIN_DURATION_BOUNDS.includes(field) && p < c) {
      return `bound ${field} cannot decrease from ${current[field]} to ${patched[field]}`;
    }
  }
  return undefined;
}

const DURATION_UNIT_NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** A Go duration string (`"90s"`, `"1m30s"`, `"-1.5h"`, `"0"`) in nanoseconds; undefined if invalid. */
function parseDurationNs(text: string): number | undefined {
  if (text === '0' || text === '+0' || text === '-0') return 0;
  const m = /^([+-]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/.exec(text);
  if (!m) return undefined;
  let total = 0;
  for (const part of m[2]!.matchAll(/(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(part[1]) * DURATION_UNIT_NS[part[2]!]!;
  }
  return m[1] === '-' ? -total : total;
}

// ---------------------------------------------------------------------------------------------

const GUARDS: Readonly<Record<GuardName, Guard>> = {
  workspace_immutable: workspaceImmutable,
  task_run_claim: taskRunClaim,
  spawn_subset: spawnSubset,
  permission_escalation: permissionEscalation,
  participation_no_widening: participationNoWidening,
  tool_id_immutable: toolIdImmutable,
};

/** Runs the event's guard, if it has one. */
export function checkGuard(guard: GuardName | null, payload: Payload, patch: PatchFields): string | undefined {
  return guard === null ? undefined : GUARDS[guard](payload, patch);
}
