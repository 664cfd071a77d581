// JSON Schema (draft-07) documents for `hooks events EVENT --schema`: the payload a hook receives
// and the answer it may give (a compozy patch, a cosh decision object), built from the catalog's
// type data. Patch schemas forbid unknown keys at every level, as patch decoding does (SPEC §3.1);
// payload and cosh schemas stay open (runtimes add fields; cosh ignores unknown output keys).
import { compozyEvent, type CompozyEvent } from '../dialects/compozy/events.js';
import { nestedTypeName, patchType, payloadType, type PatchType, type PayloadType } from '../dialects/compozy/payload-types.js';
import {
  COSH_NESTED_TYPES,
  COSH_OUTPUT_FIELDS,
  COSH_OUTPUT_TYPE,
  coshEvent,
  coshInputFields,
  coshOutputFieldApplied,
  coshPayloadTypeName,
  type CoshEvent,
} from '../dialects/cosh/events.js';

export type JsonSchema = Record<string, unknown>;

export interface EventSchemas {
  payload: JsonSchema;
  /** compozy: the patch; cosh: the decision object. */
  patch: JsonSchema;
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

export function eventSchemas(dialect: 'compozy' | 'cosh', name: string): EventSchemas | undefined {
  if (dialect === 'compozy') {
    const event = compozyEvent(name);
    return event && compozySchemas(event);
  }
  const event = coshEvent(name);
  return event && coshSchemas(event);
}

// ---------------------------------------------------------------------------------------------
// type strings → schema

interface Builder {
  lookup: (typeName: string) => PayloadType | undefined;
  /** additionalProperties: false on every object type (patch decoding is strict). */
  strict: boolean;
  definitions: Record<string, JsonSchema>;
}

/** One field type (the catalog's vocabulary) as a schema; nested types go to `definitions`. */
function typeSchema(type: string, b: Builder): JsonSchema {
  switch (type) {
    case 'string':
    case 'boolean':
    case 'integer':
    case 'number':
      return { type };
    case 'object':
      return { type: 'object' };
    case 'json':
      return {};
    case 'string_map':
      return { type: 'object', additionalProperties: { type: 'string' } };
    case 'array<string>':
      return { type: 'array', items: { type: 'string' } };
  }
  const nested = nestedTypeName(type);
  if (!nested) throw new Error(`schema: unknown field type "${type}"`);
  const ref = { $ref: `#/definitions/${nested}` };
  defineNested(nested, b);
  return type.startsWith('array<') ? { type: 'array', items: ref } : ref;
}

function defineNested(name: string, b: Builder): void {
  if (Object.hasOwn(b.definitions, name)) return;
  const t = b.lookup(name);
  if (!t) throw new Error(`schema: unknown nested type "${name}"`);
  b.definitions[name] = {}; // placeholder first, so a self-referencing type terminates
  b.definitions[name] = { title: name, ...objectSchema(t, b) };
}

function objectSchema(t: PayloadType, b: Builder, describe?: (field: string) => string | undefined): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [field, type] of Object.entries(t.fields)) {
    const schema = typeSchema(type, b);
    const values = t.enums?.[field];
    if (values) schema.enum = [...values];
    const description = describe?.(field);
    properties[field] = description ? { description, ...schema } : schema;
  }
  return b.strict ? { type: 'object', properties, additionalProperties: false } : { type: 'object', properties };
}

function document(title: string, description: string, body: JsonSchema, b: Builder): JsonSchema {
  const doc: JsonSchema = { $schema: DRAFT_07, title, description, ...body };
  if (Object.keys(b.definitions).length > 0) doc.definitions = b.definitions;
  return doc;
}

// ---------------------------------------------------------------------------------------------
// compozy

function compozySchemas(event: CompozyEvent): EventSchemas {
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

// ---------------------------------------------------------------------------------------------
// cosh

function coshSchemas(event: CoshEvent): EventSchemas {
  const lookup = (n: string) => (Object.hasOwn(COSH_NESTED_TYPES, n) ? COSH_NESTED_TYPES[n] : undefined);

  const fields = coshInputFields(event.name) ?? [];
  const pb: Builder = { lookup, strict: false, definitions: {} };
  const properties: Record<string, JsonSchema> = {};
  for (const f of fields) {
    const schema = typeSchema(f.type, pb);
    if (f.enum) schema.enum = [...f.enum];
    properties[f.name] = { description: f.description, ...schema };
  }
  const required = fields.filter((f) => f.base).map((f) => f.name);
  const payloadTitle = `${event.name} input (${coshPayloadTypeName(event.name)})`;
  const payload = document(payloadTitle, event.summary, { type: 'object', properties, required }, pb);

  const ob: Builder = { lookup, strict: false, definitions: {} };
  const outProps: Record<string, JsonSchema> = {};
  for (const f of COSH_OUTPUT_FIELDS) {
    // decision's values include null, so it is described by its enum alone.
    const schema = f.enum ? { enum: [...f.enum] } : typeSchema(f.type, ob);
    const ignored = coshOutputFieldApplied(event, f.name)
      ? ''
      : ` ${event.name} takes no decision: recorded and ignored.`;
    outProps[f.name] = { description: f.description + ignored, ...schema };
  }
  const takes = event.interceptable ? `takes ${event.decisions.join(', ')}` : 'takes no decision';
  const output = document(
    `${event.name} output (${COSH_OUTPUT_TYPE})`,
    `${event.summary}. Empty stdout is a pass-through; this event ${takes}.`,
    { type: 'object', properties: outProps },
    ob,
  );
  return { payload, patch: output };
}
