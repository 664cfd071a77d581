// Payload and patch types as one CompozyOS release has them (SPEC §10): the fields the release
// has, and for a patch which of them are applied and whether it is observation-only. Loaded only
// where types are needed (events EVENT, --schema, dispatch), never by list/validate.
import type { PatchType, PayloadType } from './payload-types.js';
import type { VersionedField, VersionedPayloadData } from './release-data.js';
import { COMPOZY_VERSIONED_PATCHES, COMPOZY_VERSIONED_PAYLOADS } from './release-types.generated.js';
import { catalogPosition, newestCompozyRelease, spanHolds, valuesAt, type CompozyRelease } from './releases.js';

const payloadCache = new Map<string, PayloadType | null>();
const patchCache = new Map<string, PatchType | null>();

/** A payload type or nested struct type as `release` has it; undefined when the release has no such type. */
export function payloadTypeIn(name: string, release: CompozyRelease = newestCompozyRelease()): PayloadType | undefined {
  const key = `${release.catalogOf}\u0000${name}`;
  if (!payloadCache.has(key)) {
    const data = Object.hasOwn(COMPOZY_VERSIONED_PAYLOADS, name) ? COMPOZY_VERSIONED_PAYLOADS[name] : undefined;
    payloadCache.set(key, (data && typeAt(data, catalogPosition(release))) ?? null);
  }
  return payloadCache.get(key) ?? undefined;
}

/** A patch type as `release` has it: its fields, applied fields and observation-only flag. */
export function patchTypeIn(name: string, release: CompozyRelease = newestCompozyRelease()): PatchType | undefined {
  const key = `${release.catalogOf}\u0000${name}`;
  if (!patchCache.has(key)) {
    const data = Object.hasOwn(COMPOZY_VERSIONED_PATCHES, name) ? COMPOZY_VERSIONED_PATCHES[name] : undefined;
    const at = catalogPosition(release);
    const base = data ? typeAt(data, at) : undefined;
    if (!data || !base) patchCache.set(key, null);
    else {
      const { applied, observation_only } = valuesAt(
        { applied: data.applied, observation_only: data.observation_only },
        data.before,
        at,
      );
      const patch: PatchType = {
        fields: base.fields,
        applied: applied.filter((f) => Object.hasOwn(base.fields, f)),
        observation_only,
      };
      if (data.applied_to) patch.applied_to = { ...data.applied_to };
      patchCache.set(key, patch);
    }
  }
  return patchCache.get(key) ?? undefined;
}

/** The fields of a type at one position of the release order; undefined when the type is absent there. */
function typeAt(data: VersionedPayloadData, at: number): PayloadType | undefined {
  if (!spanHolds(data, at)) return undefined;
  const fields: Record<string, string> = {};
  for (const [field, value] of Object.entries(data.fields)) {
    if (fieldHolds(value, at)) fields[field] = typeof value === 'string' ? value : value.type;
  }
  const out: PayloadType = { fields };
  if (data.enums) {
    const enums: Record<string, string[]> = {};
    for (const [field, values] of Object.entries(data.enums))
      if (Object.hasOwn(fields, field)) enums[field] = [...values];
    if (Object.keys(enums).length) out.enums = enums;
  }
  return out;
}

function fieldHolds(value: VersionedField, at: number): boolean {
  return typeof value === 'string' || spanHolds(value, at);
}

/** Every payload or patch type name the catalog has in any release (for the changes between releases). */
export function versionedTypeNames(): { payloads: string[]; patches: string[] } {
  return { payloads: Object.keys(COMPOZY_VERSIONED_PAYLOADS), patches: Object.keys(COMPOZY_VERSIONED_PATCHES) };
}
