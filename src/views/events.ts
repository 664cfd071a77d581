// Human rendering of `hooks events`: the table of every event, and one event in detail.
import type { Colour } from '../cli/colour.js';
import { cutToWidth, displayWidth, identifier, renderTable, terminalWidth, type Cell } from '../cli/table.js';
import type { EventDetail, EventRow } from '../dialects/types.js';

/** The table; then, per dialect whose catalog has versions, which one is shown (SPEC §10). */
export function renderEventRows(rows: readonly EventRow[], colour: Colour, versions: readonly string[] = []): string {
  // A note under the table fits as the table does: a shorter pointer to --changes when the whole
  // one does not, and cut only when even that is too wide.
  const width = terminalWidth();
  const footer = versions.map((v) => {
    const notes = [`Catalog: ${v} (see: hookctl hooks events --changes)`, `Catalog: ${v} (see --changes)`];
    const note =
      width === undefined ? notes[0]! : (notes.find((n) => displayWidth(n) <= width) ?? cutToWidth(notes[1]!, width));
    return colour.paint('dim', note);
  });
  return [table(rows, colour), ...footer].join('\n');
}

function table(rows: readonly EventRow[], colour: Colour): string {
  return renderTable(
    [
      identifier('Event'),
      'Dialect',
      { head: 'Family', dropOrder: 3 },
      'Sync',
      'Deny',
      { head: 'Payload', cutFirst: true, dropOrder: 2 },
      { head: 'Patch', cutFirst: true, dropOrder: 1 },
    ],
    rows.map((r) => [
      r.event,
      r.dialect,
      r.family ?? '-',
      r.sync_eligible === null ? '-' : r.sync_eligible ? 'yes' : 'no',
      r.deny ?? '-',
      cell(r.payload),
      cell(r.patch),
    ]),
    colour,
  );
}

export function renderEventDetail(detail: EventDetail, colour: Colour): string {
  const b = (t: string) => colour.paint('bold', t);
  return [
    `${b(detail.event)}  ${colour.paint('dim', detail.family === null ? `(${detail.dialect})` : `(${detail.dialect}, family ${detail.family})`)}`,
    detail.summary,
    '',
    `${b('Sync')}      ${detail.sync_eligible === null ? '-' : detail.sync_eligible ? 'yes' : 'no (async only)'}`,
    `${b('Deny')}      ${detail.deny ?? '-'}${detail.deny_field ? ` (patch field "${detail.deny_field}")` : ''}`,
    `${b('Guard')}     ${detail.guard ?? '-'}`,
    `${b('Matcher')}   ${detail.matcher_fields.length ? detail.matcher_fields.join(', ') : '-'}`,
    ...(detail.matcher_values?.length
      ? [
          `${b('Values')}    ${detail.matcher_values.join(', ')}${detail.matcher_values_closed ? '' : colour.paint('dim', ' (and others)')}`,
        ]
      : []),
    '',
    `${b('Payload')} ${cell(detail.payload)}`,
    renderTable(
      ['Field', 'Type', 'Values'],
      detail.payload_fields.map((f) => [f.name, f.type, f.enum ? f.enum.join(' | ') : '']),
      colour,
    ),
    '',
    ...answer(detail, colour),
  ].join('\n');
}

/** What a hook may answer: a dialect's JSON output fields under Output, else the typed patch. */
function answer(detail: EventDetail, colour: Colour): string[] {
  const b = (t: string) => colour.paint('bold', t);
  if (detail.output) {
    if (detail.output.fields.length === 0) return [`${b('Output')}  - (no JSON output fields are honoured)`];
    return [
      b('Output'),
      renderTable(
        ['Field', 'Meaning'],
        detail.output.fields.map((f) => [f.name, f.note ?? '']),
        colour,
        { cutFirst: [1] },
      ),
    ];
  }
  return [
    `${b('Patch')} ${cell(detail.patch)}${detail.observation_only ? ' (observation only: never applied)' : ''}`,
    renderTable(
      ['Field', 'Type', 'Applied'],
      detail.patch_fields.map((f) => [f.name, f.type, f.applied ? 'yes' : 'no']),
      colour,
    ),
  ];
}

/** A row's payload/patch: a type name, or (claude) a list of field names. */
function cell(value: unknown): Cell {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.join(', ');
  return typeof value === 'string' || typeof value === 'number' ? value : JSON.stringify(value);
}
