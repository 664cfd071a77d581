// CompozyOS payload and patch types (SPEC §2.5, §3.1): the fields of each payload, and of each
// patch which fields are applied, where, and whether the patch is observation-only. Loaded only by
// `hooks events EVENT`, `--schema` and dispatch (patch decoding), never by list/validate.
//
// Type strings: string, boolean, integer, number, object (free-form map), json (any JSON value),
// string_map (string→string), array<string>, object:<Type>, array<object:<Type>>; nested types
// are looked up with payloadType().
import type { ObjectType } from '../../events/schema.js';
import { COMPOZY_PATCHES, COMPOZY_PAYLOADS } from './payload-types.generated.js';

export { nestedTypeName } from '../../events/schema.js';

/** JSON field name → type string, every field of the payload (embedded blocks flattened in). */
export type PayloadType = ObjectType;

export interface PatchType {
  /** JSON field name → type string, control keys (deny, deny_reason, cancel) included. */
  fields: Record<string, string>;
  /** Fields the dispatcher writes into the payload; the rest are decoded and ignored. */
  applied: string[];
  /** The patch has no effect at all (it is still strictly decoded). */
  observation_only: boolean;
  /** Exceptions to "replaces the payload field of the same name": field → where it lands. */
  applied_to?: Record<string, string>;
}

/** A payload type or a nested struct type (ContextBlock, PermissionSet, …) by name. */
export function payloadType(name: string): PayloadType | undefined {
  return Object.hasOwn(COMPOZY_PAYLOADS, name) ? COMPOZY_PAYLOADS[name] : undefined;
}

export function patchType(name: string): PatchType | undefined {
  return Object.hasOwn(COMPOZY_PATCHES, name) ? COMPOZY_PATCHES[name] : undefined;
}
