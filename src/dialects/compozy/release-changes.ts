// What changed between CompozyOS releases (`hooks events --changes`, SPEC §10): for each release,
// what it added, removed or changed against the one before it: events, families, matcher fields,
// what a deny does, payload and patch fields. A release whose catalog is unknown says which
// release it behaves as; a snapshot line outside the release order says what only it has.
import type { CatalogVersionChanges } from '../types.js';
import { payloadTypeIn, patchTypeIn, versionedTypeNames } from './release-types.js';
import {
  compozyReleases,
  compozyVersionData,
  releaseCatalog,
  type CompozyRelease,
  type ReleaseCatalog,
} from './releases.js';
import { compozyVersionedEvents } from './releases.generated.js';

export type ReleaseChangeKind =
  | 'family_added'
  | 'family_removed'
  | 'event_added'
  | 'event_removed'
  | 'event_changed'
  | 'matcher_field_added'
  | 'matcher_field_removed'
  | 'payload_field_added'
  | 'payload_field_removed'
  | 'patch_field_added'
  | 'patch_field_removed'
  | 'patch_changed';

export interface ReleaseChange {
  kind: ReleaseChangeKind;
  /** The family, event or field that changed. */
  name: string;
  /** Where: the families or types that gained or lost a field; empty for events and families. */
  in: string[];
  /** For a changed event or patch: `deny: stop -> null`. */
  detail?: string;
}

/** One version of the catalog and its changes: the shape `hooks events --changes` prints. */
export interface ReleaseChanges extends CatalogVersionChanges {
  runtime: 'CompozyOS';
  changes: ReleaseChange[];
}

/**
 * Every known version, oldest first, each with its changes against the release before it;
 * `selected` marks the release commands use now.
 */
export function compozyReleaseChanges(selected?: CompozyRelease): ReleaseChanges[] {
  const releases = compozyReleases();
  const out: ReleaseChanges[] = [];
  releases.forEach((release, i) => {
    const previous = i > 0 ? releases[i - 1]! : undefined;
    const entry: ReleaseChanges = {
      runtime: 'CompozyOS',
      version: release.label,
      name: release.name,
      date: release.date,
      catalog: release.catalog,
      previous: previous?.label ?? null,
      changes: previous ? diffReleases(previous, release) : [],
    };
    if (release.catalogOf !== release.label) entry.uses = release.catalogOf;
    if (selected?.label === release.label) entry.selected = true;
    out.push(entry);
  });
  for (const v of compozyVersionData()) {
    if (v.linear) continue;
    out.push({
      runtime: 'CompozyOS',
      version: v.label,
      name: v.name,
      date: v.date,
      catalog: v.catalog,
      previous: null,
      outside_release_order: true,
      changes: compozyVersionedEvents()
        .filter((e) => e.since === v.label)
        .map((e) => ({
          kind: 'event_added' as const,
          name: e.name,
          in: [e.family],
        })),
    });
  }
  return out;
}

/** The changes from release `a` to release `b`. */
export function diffReleases(a: CompozyRelease, b: CompozyRelease): ReleaseChange[] {
  const ca = releaseCatalog(a);
  const cb = releaseCatalog(b);
  return [...familyChanges(ca, cb), ...eventChanges(ca, cb), ...matcherChanges(ca, cb), ...typeChanges(ca, cb)];
}

function familyChanges(ca: ReleaseCatalog, cb: ReleaseCatalog): ReleaseChange[] {
  const out: ReleaseChange[] = [];
  for (const f of Object.keys(cb.families))
    if (!Object.hasOwn(ca.families, f)) out.push({ kind: 'family_added', name: f, in: [] });
  for (const f of Object.keys(ca.families))
    if (!Object.hasOwn(cb.families, f)) out.push({ kind: 'family_removed', name: f, in: [] });
  return out;
}

function eventChanges(ca: ReleaseCatalog, cb: ReleaseCatalog): ReleaseChange[] {
  const out: ReleaseChange[] = [];
  for (const e of cb.events) if (!ca.event(e.name)) out.push({ kind: 'event_added', name: e.name, in: [e.family] });
  for (const e of ca.events) if (!cb.event(e.name)) out.push({ kind: 'event_removed', name: e.name, in: [e.family] });
  for (const eb of cb.events) {
    const ea = ca.event(eb.name);
    if (!ea) continue;
    const details = (['sync_eligible', 'deny', 'deny_field', 'guard'] as const)
      .filter((k) => ea[k] !== eb[k])
      .map((k) => `${k}: ${String(ea[k])} -> ${String(eb[k])}`);
    if (details.length) out.push({ kind: 'event_changed', name: eb.name, in: [eb.family], detail: details.join(', ') });
  }
  return out;
}

/** Matcher fields gained or lost by families present in both releases (and by events overriding theirs). */
function matcherChanges(ca: ReleaseCatalog, cb: ReleaseCatalog): ReleaseChange[] {
  const added = new Map<string, string[]>();
  const removed = new Map<string, string[]>();
  const note = (map: Map<string, string[]>, field: string, where: string): void => {
    map.set(field, [...(map.get(field) ?? []), where]);
  };
  for (const [family, fb] of Object.entries(cb.families)) {
    const fa = ca.families[family];
    if (!fa) continue;
    for (const f of fb) if (!fa.includes(f)) note(added, f, family);
    for (const f of fa) if (!fb.includes(f)) note(removed, f, family);
  }
  return [
    ...[...added].map(([name, where]) => ({ kind: 'matcher_field_added' as const, name, in: where })),
    ...[...removed].map(([name, where]) => ({ kind: 'matcher_field_removed' as const, name, in: where })),
  ];
}

/** Fields gained or lost by payload and patch types that both releases have; a patch's applied list. */
function typeChanges(ca: ReleaseCatalog, cb: ReleaseCatalog): ReleaseChange[] {
  const out: ReleaseChange[] = [];
  const { payloads, patches } = versionedTypeNames();
  const fieldDiff = (
    names: string[],
    lookup: (n: string, r: CompozyRelease) => { fields: Record<string, string> } | undefined,
    kinds: ['payload_field_added' | 'patch_field_added', 'payload_field_removed' | 'patch_field_removed'],
  ): void => {
    const added = new Map<string, string[]>();
    const removed = new Map<string, string[]>();
    for (const name of names) {
      const ta = lookup(name, ca.release);
      const tb = lookup(name, cb.release);
      if (!ta || !tb) continue;
      for (const f of Object.keys(tb.fields))
        if (!Object.hasOwn(ta.fields, f)) added.set(f, [...(added.get(f) ?? []), name]);
      for (const f of Object.keys(ta.fields))
        if (!Object.hasOwn(tb.fields, f)) removed.set(f, [...(removed.get(f) ?? []), name]);
    }
    for (const [name, where] of added) out.push({ kind: kinds[0], name, in: where });
    for (const [name, where] of removed) out.push({ kind: kinds[1], name, in: where });
  };
  fieldDiff(payloads, payloadTypeIn, ['payload_field_added', 'payload_field_removed']);
  fieldDiff(patches, patchTypeIn, ['patch_field_added', 'patch_field_removed']);
  for (const name of patches) {
    const pa = patchTypeIn(name, ca.release);
    const pb = patchTypeIn(name, cb.release);
    if (!pa || !pb) continue;
    const details: string[] = [];
    if (pa.applied.join(',') !== pb.applied.join(','))
      details.push(`applied: [${pa.applied.join(', ')}] -> [${pb.applied.join(', ')}]`);
    if (pa.observation_only !== pb.observation_only)
      details.push(`observation_only: ${pa.observation_only} -> ${pb.observation_only}`);
    if (details.length) out.push({ kind: 'patch_changed', name, in: [], detail: details.join(', ') });
  }
  return out;
}
