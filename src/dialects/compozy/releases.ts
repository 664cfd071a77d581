// CompozyOS catalog versions (SPEC §10): which releases hookctl knows, which one a command
// validates against, and each release's events, families and matcher fields. Pure functions over
// the generated data (scripts/gen-catalog.mjs); payload and patch types are in
// release-types.ts, the changes between releases in release-changes.ts.
//
// An item (family, event, matcher field, payload field) exists in release R when its `since` is R
// or earlier and its `removed_in` is later than R. A version whose catalog is unknown behaves as
// the nearest earlier known one (`uses`). Items whose `since` is a version outside the release
// order (`linear: false`) exist in no release.
import { usageError, type HookctlError } from '../../errors.js';
import type { CompozyEvent } from './events.js';
import type {
  ReleaseData,
  ReleaseLabel,
  ReleaseSpan,
  VersionedEventData,
  VersionedMatcherField,
} from './release-data.js';
import { compozyVersionedEvents, compozyVersionedFamilies, compozyVersionedReleases } from './releases.generated.js';

/** The environment variable that selects a release when `--compozy-version` is not given. */
export const COMPOZY_VERSION_ENV = 'HOOKCTL_COMPOZY_VERSION';

export interface CompozyRelease {
  label: ReleaseLabel;
  /** How messages name it (`v0.3.0` for the retirement release). */
  name: string;
  date: string | null;
  /** How well upstream's catalog of this version is known (`exact`, `partial`, `unknown`, …). */
  catalog: string;
  /** The version whose catalog applies: the label itself, or the nearest earlier known one. */
  catalogOf: ReleaseLabel;
  newest: boolean;
}

/** One event as a release has it: the effective matcher fields and the payload path each reads. */
export interface ReleaseEvent extends CompozyEvent, ReleaseSpan {}

/** The catalog of one release. */
export interface ReleaseCatalog {
  release: CompozyRelease;
  /** Events of the release, in upstream catalog order. */
  events: readonly ReleaseEvent[];
  event(name: string): ReleaseEvent | undefined;
  /** Family → its matcher fields in this release (families the release has). */
  families: Readonly<Record<string, readonly string[]>>;
  /** Every matcher field some event of this release accepts, plus `agent_type` (known, accepted by none). */
  knownMatcherFields: ReadonlySet<string>;
}

interface ReleaseIndex {
  /** Position in the release order of each linear version. */
  order: Map<ReleaseLabel, number>;
  data: Map<ReleaseLabel, ReleaseData>;
  /** The releases `--compozy-version` accepts, oldest first; the last is the newest. */
  selectable: readonly CompozyRelease[];
}

let index: ReleaseIndex | undefined;

/**
 * The release order, each version's data and the selectable releases, built on first use as the
 * generated tables are: a run that reads no CompozyOS hook builds none of it (docs/PERFORMANCE.md).
 */
function releaseIndex(): ReleaseIndex {
  if (index !== undefined) return index;
  const releases = compozyVersionedReleases();
  const order = new Map<ReleaseLabel, number>();
  releases.filter((r) => r.linear).forEach((r, i) => order.set(r.label, i));
  const list = releases.filter((r) => r.selectable);
  const selectable = list.map((r, i) => ({
    label: r.label,
    name: r.name,
    date: r.date,
    catalog: r.catalog,
    catalogOf: r.uses ?? r.label,
    newest: i === list.length - 1,
  }));
  return (index = { order, data: new Map(releases.map((r) => [r.label, r])), selectable });
}

/** The newest release: what every command validates against unless told otherwise. */
export function newestCompozyRelease(): CompozyRelease {
  const { selectable } = releaseIndex();
  return selectable[selectable.length - 1]!;
}

/** The releases `--compozy-version` accepts, oldest first. */
export function compozyReleases(): readonly CompozyRelease[] {
  return releaseIndex().selectable;
}

/** Every version of the catalog, the ones outside the release order included. */
export function compozyVersionData(): readonly ReleaseData[] {
  return compozyVersionedReleases();
}

/**
 * The release a label names; undefined selects the newest. An unknown label is a usage error
 * that lists the known ones. A leading `v` may be left out (`0.3.0-beta.19`).
 */
export function resolveCompozyRelease(requested?: string): CompozyRelease {
  if (requested === undefined) return newestCompozyRelease();
  const wanted = requested.trim();
  if (wanted === '') return newestCompozyRelease();
  const lower = wanted.toLowerCase();
  const found = compozyReleases().find((r) => r.label.toLowerCase() === lower || r.label.toLowerCase() === `v${lower}`);
  if (found) return found;
  throw unknownVersionError(wanted);
}

/** `--compozy-version` beats `HOOKCTL_COMPOZY_VERSION`; neither selects the newest. */
export function selectCompozyRelease(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): CompozyRelease {
  return resolveCompozyRelease(flag ?? env[COMPOZY_VERSION_ENV]);
}

function unknownVersionError(wanted: string): HookctlError {
  const outside = compozyVersionedReleases().find((r) => !r.selectable && r.label === wanted);
  const known = compozyReleases()
    .map((r) => (r.newest ? `${r.label} (newest)` : r.label))
    .join(', ');
  const why = outside ? ` (a snapshot line outside the release order)` : '';
  return usageError(`unknown CompozyOS version "${wanted}"${why}; known versions: ${known}`, 'unknown_compozy_version');
}

/** The release a label names, for catalog computations (selectable or not). */
function orderOf(label: ReleaseLabel): number {
  return releaseIndex().order.get(label) ?? -1;
}

/** Whether an item with this span exists in the release at position `at` of the release order. */
export function spanHolds(span: ReleaseSpan, at: number): boolean {
  if (span.since !== undefined) {
    const since = orderOf(span.since);
    if (since === -1 || since > at) return false;
  }
  if (span.removed_in !== undefined) {
    const removed = orderOf(span.removed_in);
    if (removed !== -1 && removed <= at) return false;
  }
  return true;
}

/** The position of the catalog a release uses (an unknown catalog: the nearest earlier known one). */
export function catalogPosition(release: CompozyRelease): number {
  return orderOf(release.catalogOf);
}

/** Values of a `before` list that hold at position `at` (the earliest entry that is still ahead wins). */
export function valuesAt<T extends object>(
  current: T,
  before: readonly { until: ReleaseLabel; values: Partial<T> }[] | undefined,
  at: number,
): T {
  if (!before || before.length === 0) return current;
  const ahead = before.filter((b) => orderOf(b.until) > at).sort((a, b) => orderOf(b.until) - orderOf(a.until));
  return ahead.reduce<T>((acc, b) => ({ ...acc, ...b.values }), current);
}

function fieldName(m: VersionedMatcherField): string {
  return typeof m === 'string' ? m : m.name;
}

function matcherFieldHolds(m: VersionedMatcherField, at: number): boolean {
  return typeof m === 'string' || spanHolds(m, at);
}

const catalogs = new Map<ReleaseLabel, ReleaseCatalog>();

/** The catalog of one release (by its label, or the newest). */
export function releaseCatalog(release: CompozyRelease = newestCompozyRelease()): ReleaseCatalog {
  const cached = catalogs.get(release.label);
  if (cached) return cached;
  const at = catalogPosition(release);
  const families: Record<string, readonly string[]> = {};
  // The payload path of each matcher field, per family: shared by the events that read their
  // family's fields at their family's paths (most of them), as their matcher_fields list is.
  const familyPaths = new Map<string, Readonly<Record<string, string>>>();
  const familyData = compozyVersionedFamilies();
  for (const [name, f] of Object.entries(familyData)) {
    if (!spanHolds(f, at)) continue;
    const fields: string[] = [];
    for (const m of f.matcher_fields) if (matcherFieldHolds(m, at)) fields.push(fieldName(m));
    families[name] = fields;
  }
  const events: ReleaseEvent[] = [];
  const byName = new Map<string, ReleaseEvent>();
  const known = new Set<string>(['agent_type']);
  for (const e of compozyVersionedEvents()) {
    if (!spanHolds(e, at) || !Object.hasOwn(families, e.family)) continue;
    const familyFields = families[e.family]!;
    const matcherFields = e.matcher_fields ?? familyFields;
    let paths: Readonly<Record<string, string>> | undefined;
    if (e.matcher_fields === undefined && e.matcher_payload_fields === undefined) {
      paths = familyPaths.get(e.family);
      if (paths === undefined)
        familyPaths.set(e.family, (paths = payloadPaths(familyFields, familyData[e.family]!.matcher_payload_fields)));
    } else {
      paths = payloadPaths(matcherFields, e.matcher_payload_fields ?? familyData[e.family]!.matcher_payload_fields);
    }
    const event = eventAt(e, matcherFields, paths, at);
    events.push(event);
    byName.set(event.name, event);
    for (const f of matcherFields) known.add(f);
  }
  const catalog: ReleaseCatalog = {
    release,
    events,
    event: (name) => byName.get(name),
    families,
    knownMatcherFields: known,
  };
  catalogs.set(release.label, catalog);
  return catalog;
}

/** Matcher field → the payload path it reads: the path `paths` names, else the field's own name. */
function payloadPaths(
  matcherFields: readonly string[],
  paths: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of matcherFields) out[f] = Object.hasOwn(paths, f) ? paths[f]! : f;
  return out;
}

/**
 * An event as the release at `at` has it. Built as one object literal with its keys in a fixed
 * order (what JSON output shows), `since`/`removed_in` last where the event has them: no spread,
 * no intermediate objects, for the ~100 events of the first `hooks list`'s catalog.
 */
function eventAt(
  e: VersionedEventData,
  matcherFields: readonly string[],
  payloadFields: Readonly<Record<string, string>>,
  at: number,
): ReleaseEvent {
  let { sync_eligible, deny, deny_field, guard } = e;
  if (e.before !== undefined && e.before.length > 0)
    ({ sync_eligible, deny, deny_field, guard } = valuesAt({ sync_eligible, deny, deny_field, guard }, e.before, at));
  const out: ReleaseEvent = {
    name: e.name,
    family: e.family,
    sync_eligible,
    deny,
    deny_field,
    guard,
    payload: e.payload,
    patch: e.patch,
    summary: e.summary,
    matcher_fields: matcherFields,
    matcher_payload_fields: payloadFields,
  };
  if (e.since !== undefined) out.since = e.since;
  if (e.removed_in !== undefined) out.removed_in = e.removed_in;
  return out;
}

/** Whether an event is in a release, and when it is not, why (SPEC §10). */
export type EventInRelease =
  | { kind: 'present'; event: ReleaseEvent }
  /** Known to the catalog, not to this release: `message` is the diagnostic text. */
  | {
      kind: 'removed' | 'not_yet_added' | 'outside_releases';
      /** The declaration diagnostic: `hooks: invalid hook event "E" (<reason>)`. */
      message: string;
      /** `removed in CompozyOS v0.3.0`, `added in CompozyOS main-2026-10`, … */
      reason: string;
      release: string;
    }
  /** No release has ever had it. */
  | { kind: 'unknown' };

let versionedByName: Map<string, VersionedEventData> | undefined;

/** Every event of any release (or none) by name. */
function versionedEvent(name: string): VersionedEventData | undefined {
  return (versionedByName ??= new Map(compozyVersionedEvents().map((e) => [e.name, e]))).get(name);
}

/**
 * Event E in release V? Gone from V: `hooks: invalid hook event "E" (removed in CompozyOS <v>)`;
 * newer than V: `... (added in CompozyOS <v>)`; the replacement follows when the data names one.
 */
export function eventInRelease(name: string, release: CompozyRelease = newestCompozyRelease()): EventInRelease {
  const present = releaseCatalog(release).event(name);
  if (present) return { kind: 'present', event: present };
  const data = versionedEvent(name);
  if (!data) return { kind: 'unknown' };
  const at = catalogPosition(release);
  const family = compozyVersionedFamilies()[data.family]!;
  const removedIn = earliestLabel([data.removed_in, family.removed_in].filter(isLabel).filter((l) => orderOf(l) <= at));
  const since = latestLabel([data.since, family.since].filter(isLabel));
  const prefix = `hooks: invalid hook event ${JSON.stringify(name)}`;
  const replacement = replacementOf(data);
  const use = replacement ? `; use ${JSON.stringify(replacement)}` : '';
  const outside = (kind: 'removed' | 'not_yet_added' | 'outside_releases', label: string, reason: string) => ({
    kind,
    release: label,
    reason,
    message: `${prefix} (${reason})`,
  });
  if (removedIn !== undefined) {
    return outside('removed', removedIn, `removed in CompozyOS ${releaseIndex().data.get(removedIn)!.name}${use}`);
  }
  if (since !== undefined && orderOf(since) === -1) {
    return outside('outside_releases', since, `only in CompozyOS ${since} snapshots, outside the release order`);
  }
  const r = releaseIndex().data.get(since ?? release.label)!;
  return outside('not_yet_added', r.label, `added in CompozyOS ${r.name}`);
}

function isLabel(l: string | undefined): l is string {
  return l !== undefined;
}

function earliestLabel(list: string[]): string | undefined {
  return list.sort((a, b) => orderOf(a) - orderOf(b))[0];
}

function latestLabel(list: string[]): string | undefined {
  // A version outside the release order counts as latest: nothing in a release has the item.
  return list
    .sort((a, b) => (orderOf(a) === -1 ? Infinity : orderOf(a)) - (orderOf(b) === -1 ? Infinity : orderOf(b)))
    .at(-1);
}

/** The replacement an event's data names (`replaced_by`), if any. */
function replacementOf(e: VersionedEventData): string | undefined {
  return e.replaced_by !== undefined && e.replaced_by !== '' ? e.replaced_by : undefined;
}

/**
 * Every event some release has, in catalog order: what a file schema accepts, since a schema
 * cannot know the user's release (scripts/gen-schemas.mjs computes the same list).
 */
export function eventsOfAnyRelease(): string[] {
  const names = new Set<string>();
  for (const r of compozyReleases()) for (const e of releaseCatalog(r).events) names.add(e.name);
  return compozyVersionedEvents()
    .map((e) => e.name)
    .filter((n) => names.has(n));
}

/** Every matcher field some release accepts (`agent_type` included, as in each release). */
export function matcherFieldsOfAnyRelease(): Set<string> {
  const fields = new Set<string>();
  for (const r of compozyReleases()) for (const f of releaseCatalog(r).knownMatcherFields) fields.add(f);
  return fields;
}
