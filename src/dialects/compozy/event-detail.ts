// `hooks events EVENT` and `--schema` for CompozyOS events (SPEC §2.5, §3.1): the payload a hook
// receives and the patch it may answer, from the generated payload and patch types. Patch schemas
// forbid unknown keys at every level, as patch decoding does; payload schemas stay open (the
// runtime adds fields). Loaded only when one event is shown: list and validate never need it.
import type { EventDetail } from '../types.js';
import { document, objectSchema, type Builder, type EventSchemas } from '../../events/schema.js';
import { compozyEventRow, type CompozyEvent } from './events.js';
import { patchType, payloadType, type PatchType } from './payload-types.js';

export function compozyEventDetail(e: CompozyEvent): EventDetail {
  const payload = payloadType(e.payload);
  const patch = patchType(e.patch);
  if (!payload || !patch) throw new Error(`events: catalog types missing for "${e.name}"`);
  return {
    ...compozyEventRow(e),
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

export function compozyEventSchemas(event: CompozyEvent): EventSchemas {
  const payload = payloadType(event.payload);
  const patch = patchType(event.patch);
  // The generator checked every reference; a miss here means hand-edited generated files.
  if (!payload || !patch) throw new Error(`schema: catalog types missing for "${event.name}"`);

  const pb: Builder = { lookup: payloadType, strict: false, definitions: {} };
  const payloadBody = objectSchema(payload, pb);

  const kb: Builder = { lookup: payloadType, strict: true, definitions: {} };
  const patchBody = objectSchema(patch, kb, (f) => patchFieldNote(event, patch, f));

  return {
    payload: document(`${event.name} payload (${event.payload})`, event.summary, payloadBody, pb),
    patch: document(`${event.name} patch (${event.patch})`, patchDescription(event, patch), patchBody, kb),
  };
}

function patchDescription(event: CompozyEvent, patch: PatchType): string {
  const notes = [event.summary];
  if (patch.observation_only) notes.push('Observation only: the patch is decoded strictly but never applied.');
  if (!event.sync_eligible) notes.push('Async-only event: patches are decoded but never applied.');
  return notes.join(' ');
}

function patchFieldNote(event: CompozyEvent, patch: PatchType, field: string): string {
  const parts: string[] = [];
  if (field === event.deny_field && event.deny) {
    parts.push(event.deny === 'error' ? 'true denies the dispatch' : 'true stops the sync chain');
  }
  if (patch.observation_only) parts.push('decoded, never applied');
  else if (patch.applied_to?.[field]) parts.push(`applied to ${patch.applied_to[field]}`);
  else if (patch.applied.includes(field)) parts.push('applied: replaces the payload field of the same name');
  else parts.push('decoded and ignored');
  return parts.join('; ');
}
