// CompozyOS payload and patch types (SPEC §2.5, §3.1): the fields of each payload, and of each
// patch which fields are applied, where, and whether the patch is observation-only. Loaded only by
// `hooks events EVENT`, `--schema` and dispatch (patch decoding), never by list/validate.
//
// Type strings: string, boolean, integer, number, object (free-form map), json (any JSON value),
// string_map (string→string), array<string>, object:<Type>, array<object:<Type>>; nested types
// are looked up with payloadType().
import type { ObjectType } from '../../events/schema.js';
import { selectedCompozyRelease } from './release-selection.js';
import { patchTypeIn, payloadTypeIn } from './release-types.js';

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

/** A payload type or a nested struct type (ContextBlock, PermissionSet, …) by name, as the selected release has it. */
export function payloadType(name: string): PayloadType | undefined {
  return payloadTypeIn(name, selectedCompozyRelease());
}

/** A patch type as the selected release has it (SPEC §10: the context patch changed in main-2026-10). */
export function patchType(name: string): PatchType | undefined {
  return patchTypeIn(name, selectedCompozyRelease());
}
