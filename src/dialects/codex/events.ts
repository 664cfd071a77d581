// `hooks events` for the codex dialect (codex.md §7): one row per catalog event, shaped as the
// other dialects' rows plus the catalog entry; the detail of one event; its --schema.
import type { CodexEventData } from './catalog-types.js';
import { codexCatalogEvents, codexCatalogMeta, codexEvent } from './catalog.js';

export type CodexEventRow = CodexEventData & {
  event: string;
  dialect: 'codex';
  family: null;
  sync_eligible: null;
  /** exit2 when it is deny or block, else null (codex.md §7). */
  deny: string | null;
  payload: readonly string[];
  patch: null;
};

export function codexEventRow(e: CodexEventData): CodexEventRow {
  return {
    event: e.name,
    dialect: 'codex',
    family: null,
    sync_eligible: null,
    deny: e.exit2 === 'deny' || e.exit2 === 'block' ? e.exit2 : null,
    payload: e.payload_fields,
    patch: null,
    ...e,
  };
}

let rows: readonly CodexEventRow[] | undefined;

export function codexEventRows(): readonly CodexEventRow[] {
  return (rows ??= codexCatalogEvents().map(codexEventRow));
}

/** The fields every payload carries (codex.md §5.1 fills them when absent). */
const BASE_FIELDS = new Set(['session_id', 'transcript_path', 'cwd', 'hook_event_name']);

/** `hooks events EVENT`: the row, plus payload and answer fields, matcher field and values. */
export function codexEventDetail(name: string) {
  const e = codexEvent(name);
  if (e === undefined) return undefined;
  const meta = codexCatalogMeta();
  const topLevel = e.output_fields.filter((f) => f !== 'hookSpecificOutput');
  const answer = [
    ...Object.keys(meta.universal_output_fields).filter((f) => !topLevel.includes(f)),
    ...topLevel,
    ...e.hook_specific_fields.map((f) => `hookSpecificOutput.${f}`),
  ];
  return {
    ...codexEventRow(e),
    summary: summaryOf(e),
    guard: null,
    deny_field: null,
    payload_fields: e.payload_fields.map((field) => ({
      name: field,
      type: 'json',
      ...(field === 'permission_mode' ? { enum: [...meta.permission_mode_values] } : {}),
      ...(field === e.matcher_field && e.matcher_values ? { enum: [...e.matcher_values] } : {}),
      ...(BASE_FIELDS.has(field) ? { base: true } : {}),
    })),
    patch_fields: answer.map((field) => ({ name: field, type: 'json', applied: true })),
    observation_only: e.plain_stdout === 'not_read',
    matcher_fields: e.matcher_field === null ? [] : [e.matcher_field],
    matcher_values: e.matcher_values,
    matcher_values_closed: e.matcher_values !== null,
    output: { fields: answer.map((name) => ({ name, note: meta.universal_output_fields[name] ?? null })) },
  };
}

function summaryOf(e: CodexEventData): string {
  const exit2 = e.exit2 === null ? 'exit 2 is an ordinary failure' : `exit 2 with a reason on stderr: ${e.exit2}`;
  const stdout =
    e.plain_stdout === 'not_read'
      ? 'stdout is not read'
      : e.plain_stdout === 'context'
        ? 'plain stdout is context'
        : e.plain_stdout === 'failed'
          ? 'plain stdout fails the hook'
          : 'plain stdout is ignored';
  return `${exit2}; ${stdout}; answers are checked strictly (an unknown key fails the hook)`;
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** `--schema`: the payload's fields (untyped) and the answer's top-level keys, closed as Codex checks them. */
export function codexEventSchemas(name: string) {
  const e = codexEvent(name);
  if (e === undefined) return undefined;
  const props = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, {}]));
  const payload = {
    $schema: DRAFT_07,
    title: `${e.name} input`,
    type: 'object',
    properties: props(e.payload_fields),
    required: ['session_id', 'cwd', 'hook_event_name'],
  };
  return {
    payload,
    document: payload,
    patch: {
      $schema: DRAFT_07,
      title: `${e.name} output`,
      type: 'object',
      properties: props([...new Set([...Object.keys(codexCatalogMeta().universal_output_fields), ...e.output_fields])]),
      additionalProperties: false,
    },
  };
}
