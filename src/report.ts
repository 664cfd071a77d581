// Human output as data: what a dialect hands the views when its output has a shape of its own
// (claude's fire and dry run, its list columns). A dialect imports no view and no terminal code
// (docs/DESIGN.md, "Dialects"): it says what to show and how it gives way, and src/views paints
// and fits it with src/cli/table.ts.

/**
 * A column and how it gives way when the table is wider than the terminal (SPEC §7.4). A plain
 * string heading is a column that is cut like any other.
 */
export interface Column {
  head: string;
  /** What the user types next (a hook name, an event, a session id): never cut. */
  identifier?: boolean;
  /** Free text (an error, a label, a payload list): cut first. */
  cutFirst?: boolean;
  /** ISO timestamps: shortened whole (18:20:58 today, 12-01 18:20 otherwise), never cut. */
  timestamp?: boolean;
  /** May be left out when the table cannot fit otherwise; the lowest goes first. */
  dropOrder?: number;
}

export type Heading = string | Column;

/** A column never cut: a name the user types next. */
export const identifier = (head: string, more: Omit<Column, 'head'> = {}): Column => ({
  head,
  identifier: true,
  ...more,
});

/** How a piece of text is shown; the views give each tone its colour (or none, with --no-color). */
export type Tone = 'ok' | 'warning' | 'error' | 'dim' | 'bold';

/** Text in one tone. */
export interface Toned {
  readonly text: string;
  readonly tone: Tone;
}

/** Plain text, toned text, or pieces of both one after the other. */
export type ReportText = string | Toned | readonly (string | Toned)[];

export const toned = (tone: Tone, text: string): Toned => ({ text, tone });

/** A table as data: its columns and its rows (a null cell is empty). */
export interface ReportTable {
  readonly columns: readonly Heading[];
  readonly rows: readonly (readonly (ReportText | number | null)[])[];
}

/** A dispatch's human output as data: labelled lines, a dim footer, then the runs. */
export interface FireReport {
  /** `verdict`, `reason`, … in order; a text's line breaks are indented under its first line. */
  readonly lines: readonly { readonly label: string; readonly text: ReportText }[];
  readonly footer: string;
  readonly runs: ReportTable;
  /** Shown instead of the runs when there are none. */
  readonly noRuns: string;
}

/** A plan entry's first matcher field as a cell: `tool_name "^Bash$" vs "Bash"` (`(all)`, `(absent)`, `(none)`). */
export function planMatcherText(entry: {
  fields: readonly { field: string; pattern: unknown; value: unknown }[];
}): string {
  const f = entry.fields[0];
  if (f === undefined) return '(none)';
  const value = f.value === null || f.value === undefined ? '(absent)' : JSON.stringify(f.value);
  const pattern = f.pattern === null ? '(all)' : JSON.stringify(f.pattern);
  return `${f.field} ${pattern} vs ${value}`;
}
