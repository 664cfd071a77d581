// The shapes of the generated release catalog (scripts/gen-catalog.mjs writes
// releases.generated.ts and release-types.generated.ts in these shapes). Types only.
import type { CompozyEvent } from './events.js';

/** A version label from the catalog's `versions` list (`v0.3.0-beta.19`, `main-2026-10`, …). */
export type ReleaseLabel = string;

/** The releases an item exists in: from `since` (inclusive) to `removed_in` (exclusive); absent = unbounded. */
export interface ReleaseSpan {
  since?: ReleaseLabel;
  removed_in?: ReleaseLabel;
}

export interface ReleaseData {
  label: ReleaseLabel;
  /** How diagnostics name it: the release's version, else the label. */
  name: string;
  kind: string;
  date: string | null;
  /** `exact`, `as of <commit>`, `partial`, `unknown` or `newest` (how well its catalog is known). */
  catalog: string;
  /** false: a snapshot line outside the release order; its own items exist in no release. */
  linear: boolean;
  /** Whether `--compozy-version` accepts it. */
  selectable: boolean;
  /** For a version whose catalog is unknown: the nearest earlier known version it behaves as. */
  uses?: ReleaseLabel;
}

/** A matcher field: a plain name holds in every release. */
export type VersionedMatcherField = string | ({ name: string } & ReleaseSpan);

export interface VersionedFamilyData extends ReleaseSpan {
  matcher_fields: readonly VersionedMatcherField[];
  /** Matcher key → the payload path it reads (dots for nested objects), only where the names differ. */
  matcher_payload_fields: Readonly<Record<string, string>>;
}

/** Values that held in the releases before `until` (a later release changed them). */
export interface Before<T> {
  until: ReleaseLabel;
  values: Partial<T>;
}

/** An event as generated: CompozyEvent's facts (as the newest release has them), its span and history. */
export interface VersionedEventData
  extends ReleaseSpan, Omit<CompozyEvent, 'matcher_fields' | 'matcher_payload_fields'> {
  /** Present only where the event replaces its family's list. */
  matcher_fields?: readonly string[];
  /** Present only where the event reads other payload paths than its family. */
  matcher_payload_fields?: Readonly<Record<string, string>>;
  /** The event that replaces this one, where the data names it. */
  replaced_by?: string;
  before?: readonly Before<Pick<VersionedEventData, 'deny' | 'deny_field' | 'sync_eligible' | 'guard'>>[];
}

/** A field: a plain type string holds in every release. */
export type VersionedField = string | ({ type: string; unverified?: boolean } & ReleaseSpan);

export interface VersionedPayloadData extends ReleaseSpan {
  fields: Readonly<Record<string, VersionedField>>;
  enums?: Readonly<Record<string, readonly string[]>>;
}

export interface VersionedPatchData extends VersionedPayloadData {
  applied: readonly string[];
  observation_only: boolean;
  applied_to?: Readonly<Record<string, string>>;
  before?: readonly Before<{ applied: readonly string[]; observation_only: boolean }>[];
}
