// `hooks events` for the claude dialect (claude.md §7): one row per catalog event, shaped as the
// other dialects' rows plus the catalog entry; the detail of one event; its --schema.
import type { ClaudeEventData } from './catalog-types.js';
import { claudeCatalogMeta, claudeEvent, claudeEvents } from './catalog.js';
import { inRelease, selectedClaudeRelease } from './releases.js';

export type ClaudeEventRow = ClaudeEventData & {
  event: string;
  dialect: 'claude';
  family: null;
  sync_eligible: null;
  /** exit2 when it is deny/block/decline/fail, else null. */
  deny: string | null;
  payload: readonly string[];
  patch: null;
};

const DENYING_EXIT2 = new Set(['deny', 'block', 'decline', 'fail']);

export function claudeEventRow(e: ClaudeEventData): ClaudeEventRow {
  return {
    event: e.name,
    dialect: 'claude',
    family: null,
    sync_eligible: null,
    deny: DENYING_EXIT2.has(e.exit2) ? e.exit2 : null,
    payload: e.payload_fields,
    patch: null,
    ...e,
  };
}

/** The rows of each release looked at (one per process in practice; tests switch releases). */
const rowsByRelease = new Map<string, readonly ClaudeEventRow[]>();
export function claudeEventRows(): readonly ClaudeEventRow[] {
  const entry = selectedClaudeRelease().entry;
  let rows = rowsByRelease.get(entry);
  if (rows === undefined) rowsByRelease.set(entry, (rows = claudeEvents().map(claudeEventRow)));
  return rows;
}

/** The common payload fields of the selected release (claude.md §9). */
export function commonPayloadFields() {
  return claudeCatalogMeta().common_payload_fields.filter((f) => inRelease(f.since));
}

/** The common payload fields, then the event's own, without repeats. */
export function payloadFieldNames(e: ClaudeEventData): string[] {
  return [...new Set([...commonPayloadFields().map((f) => f.name), ...e.payload_fields])];
}

/**
 * `hooks events EVENT`: the row, plus the fields every dialect's detail has (payload and answer
 * fields, matcher fields). The catalog has no field types: each is `json`.
 */
export function claudeEventDetail(name: string) {
  const e = claudeEvent(name);
  if (e === undefined) return undefined;
  const commonFields = claudeCatalogMeta().common_payload_fields;
  const common = new Set(commonFields.map((f) => f.name));
  return {
    ...claudeEventRow(e),
    summary: e.note ?? e.exit2_note,
    guard: null,
    deny_field: null,
    payload_fields: payloadFieldNames(e).map((field) => {
      const values = commonFields.find((f) => f.name === field)?.values;
      return {
        name: field,
        type: 'json',
        ...(values ? { enum: [...values] } : {}),
        ...(common.has(field) ? { base: true } : {}),
      };
    }),
    patch_fields: e.output_fields.map((field) => ({ name: field, type: 'json', applied: true })),
    observation_only: e.output_fields.length === 0,
    matcher_fields: e.matcher_field === null ? [] : [e.matcher_field],
    matcher_values: e.matcher_values,
    matcher_values_closed: e.matcher_values_closed,
    output: { fields: e.output_fields.map((name) => ({ name, note: outputNote(name) })) },
  };
}

/** What the catalog says of a top-level output field (`continue`: boolean, default true; …). */
function outputNote(field: string): string | null {
  if (field.includes('.')) return null;
  return claudeCatalogMeta().universal_output_fields[field] ?? null;
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/**
 * `--schema`: an object schema of the common and event fields, each `{}` (the catalog has no
 * types), with the always-present ones required, which `--schema` prints; and one of the
 * honoured output fields, for what reads the answer (`hooks test`'s starter).
 */
export function claudeEventSchemas(name: string) {
  const e = claudeEvent(name);
  if (e === undefined) return undefined;
  const props = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, {}]));
  const topLevelOutputs = [...new Set(e.output_fields.map((f) => f.split('.')[0]!))];
  const payload = {
    $schema: DRAFT_07,
    title: `${e.name} input`,
    type: 'object',
    properties: props(payloadFieldNames(e)),
    required: claudeCatalogMeta()
      .common_payload_fields.filter((f) => f.always)
      .map((f) => f.name),
  };
  return {
    payload,
    // `--schema` prints the payload's schema itself (claude.md §7), not wrapped with the output's.
    document: payload,
    patch: {
      $schema: DRAFT_07,
      title: `${e.name} output`,
      type: 'object',
      properties: props(topLevelOutputs),
    },
  };
}
