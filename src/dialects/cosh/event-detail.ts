// `hooks events EVENT` and `--schema` for cosh events (SPEC §4.1, §4.4): what a hook receives on
// stdin and the decision object it may answer. Both schemas stay open: cosh-core adds input
// fields and ignores unknown output keys.
import type { EventDetail } from '../types.js';
import { document, typeSchema, type Builder, type EventSchemas, type JsonSchema } from '../../events/schema.js';
import {
  COSH_NESTED_TYPES,
  COSH_OUTPUT_FIELDS,
  COSH_OUTPUT_TYPE,
  coshEventRow,
  coshInputFields,
  coshOutputFieldApplied,
  coshPayloadTypeName,
  type CoshEvent,
} from './events.js';

export function coshEventDetail(e: CoshEvent): EventDetail {
  return {
    ...coshEventRow(e),
    summary: e.summary,
    guard: null,
    deny_field: e.interceptable ? 'decision' : null,
    payload_fields: (coshInputFields(e.name) ?? []).map((f) =>
      f.enum
        ? { name: f.name, type: f.type, enum: [...f.enum], base: f.base }
        : { name: f.name, type: f.type, base: f.base },
    ),
    patch_fields: COSH_OUTPUT_FIELDS.map((f) => ({
      name: f.name,
      type: f.type,
      applied: coshOutputFieldApplied(e, f.name),
    })),
    observation_only: false,
    matcher_fields: e.tool_matcher ? ['tool_name'] : [],
  };
}

export function coshEventSchemas(event: CoshEvent): EventSchemas {
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
