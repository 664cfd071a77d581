// Human tables: left-aligned columns, two spaces apart, no borders, trailing white space trimmed.
// Colour comes only from the colour module (the head is bold when colour is on).
//
// Why not cli-table3: its layout pass is quadratic in the number of rows (10,000 rows took 30 s
// under `hooks list`) and it is a dozen modules to load on every start. This renders the same
// text as the cli-table3 set-up it replaces (compact, no borders, padding 0 left / 2 right): a
// cell may hold several lines, and width is measured as cli-table3 measured it (string-width 4).
import type { Colour } from './colour.js';
import { safeText } from './safe-text.js';
import { stdoutIsTTY } from './output.js';
import type { Column, Heading } from '../report.js';

// The columns' model is data a dialect may hand the views (src/report.ts).
export type { Column, Heading };
export { identifier } from '../report.js';

export type Cell = string | number | null | undefined;

export interface TableOptions {
  /** Columns the table may take: undefined asks the terminal (terminalWidth), null means no limit. */
  maxWidth?: number | null;
  /** Columns (by index) that give up their width first, e.g. a free-text Why or Error. */
  cutFirst?: number[];
  /** What "today" is for shortened timestamps (default: now). */
  now?: Date;
}

export function renderTable(head: Heading[], rows: Cell[][], colour: Colour, opts: TableOptions = {}): string {
  const spec = head.map((h, c): Column => {
    const column = typeof h === 'string' ? { head: h } : h;
    return opts.cutFirst?.includes(c) ? { ...column, cutFirst: true } : column;
  });
  let table = rows.map((row) => row.map(cellText));
  if (head.length > 0) table.unshift(spec.map((h) => colour.paint('bold', h.head)));
  let columns = 0;
  for (const row of table) columns = Math.max(columns, row.length);
  const limit = opts.maxWidth === undefined ? terminalWidth() : (opts.maxWidth ?? undefined);
  const naturalOf = (t: string[][]) => {
    const widths = new Array<number>(columns).fill(0);
    for (const row of t) {
      for (let c = 0; c < row.length; c++) widths[c] = Math.max(widths[c]!, cellWidth(row[c]!));
    }
    return widths;
  };
  let natural = naturalOf(table);
  let widths = natural.slice();
  let shown = widths.map((_, c) => c);
  let dropped: string[] = [];
  if (limit !== undefined && lineWidth(widths) > limit) {
    // Timestamps give way first, whole: a shorter form of the same moment.
    const times = spec.flatMap((h, c) => (h.timestamp ? [c] : []));
    if (times.length > 0) {
      const now = opts.now ?? new Date();
      table = table.map((row, r) =>
        r === 0 && head.length > 0
          ? row
          : row.map((cell, c) => (times.includes(c) ? shortTimestamps(cell, now) : cell)),
      );
      natural = naturalOf(table);
    }
    ({ widths, shown, dropped } = fitColumns(spec, natural, limit));
  }
  const cut = shown.some((c) => widths[c]! < natural[c]!);
  const pad = (cell: string, c: number) => {
    const text = cut ? cutToWidth(cell, widths[c]!) : cell;
    return text + ' '.repeat(widths[c]! + 2 - displayWidth(text));
  };
  const out: string[] = [];
  for (const row of table) {
    if (!row.some((cell) => cell.includes('\n'))) {
      let line = '';
      for (const c of shown) line += pad(row[c] ?? '', c);
      out.push(line.trimEnd());
      continue;
    }
    // A cell of several lines makes the row that many lines high.
    const cells = row.map((cell) => cell.split('\n'));
    const height = Math.max(...cells.map((lines) => lines.length));
    for (let k = 0; k < height; k++) {
      let line = '';
      for (const c of shown) line += pad(cells[c]?.[k] ?? '', c);
      out.push(line.trimEnd());
    }
  }
  // The columns left out are named, in a line that fits as well.
  if (dropped.length > 0 && limit !== undefined)
    out.push(colour.paint('dim', cutToWidth(`(left out to fit: ${dropped.join(', ')}; -o json has all)`, limit)));
  return out.join('\n');
}

/**
 * The widths that fit `limit`, from the natural ones: free text gives way first, then any column
 * but an identifier or a timestamp, each down to its floor; if that is not enough, the columns
 * that may be left out go, lowest dropOrder first. Identifiers alone too wide: the row exceeds.
 */
export function fitColumns(
  spec: readonly Column[],
  natural: readonly number[],
  limit: number,
): { widths: number[]; shown: number[]; dropped: string[] } {
  const heads = natural.map((_, c) => spec[c]?.head ?? '');
  const droppable = spec
    .flatMap((h, c) => (h.dropOrder === undefined ? [] : [{ c, order: h.dropOrder }]))
    .sort((a, b) => a.order - b.order || a.c - b.c);
  let shown = natural.map((_, c) => c);
  const dropped: string[] = [];
  for (;;) {
    const w = shown.map((c) => natural[c]!);
    const at = (test: (h: Column) => boolean | undefined) =>
      shown.flatMap((c, i) => (spec[c] !== undefined && test(spec[c]) ? [i] : []));
    const keep = new Set(at((h) => h.identifier || h.timestamp));
    fitWidths(
      w,
      shown.map((c) => heads[c]!),
      limit,
      at((h) => h.cutFirst),
      w.map((_, i) => i).filter((i) => !keep.has(i)),
    );
    const next = droppable.shift();
    if (lineWidth(w) <= limit || next === undefined)
      return { widths: natural.map((n, c) => (shown.includes(c) ? w[shown.indexOf(c)]! : n)), shown, dropped };
    shown = shown.filter((c) => c !== next.c);
    dropped.push(heads[next.c]!);
  }
}

/** A line's width: the columns two spaces apart. */
function lineWidth(widths: readonly number[]): number {
  return widths.reduce((sum, w) => sum + w, 0) + 2 * Math.max(0, widths.length - 1);
}

// An ISO timestamp as records carry it: 2026-12-01T18:20:58.123Z (the offset may be +hh:mm).
const ISO = /(?<!\d)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;

/**
 * Each ISO timestamp in `text` in a short local form, whole: `18:20:58` on `now`'s day,
 * `12-01 18:20` in its year, `2025-12-01 18:20` before.
 */
export function shortTimestamps(text: string, now: Date): string {
  return text.replace(ISO, (iso) => {
    const t = new Date(iso);
    if (Number.isNaN(t.getTime())) return iso;
    const two = (n: number) => String(n).padStart(2, '0');
    const time = `${two(t.getHours())}:${two(t.getMinutes())}`;
    const day = `${two(t.getMonth() + 1)}-${two(t.getDate())}`;
    if (t.getFullYear() !== now.getFullYear()) return `${t.getFullYear()}-${day} ${time}`;
    if (t.getMonth() !== now.getMonth() || t.getDate() !== now.getDate()) return `${day} ${time}`;
    return `${time}:${two(t.getSeconds())}`;
  });
}

/**
 * A table printed a row at a time, as rows arrive (`runs --follow`). The rows to come are not
 * known, so the columns start at `minWidths` (a timestamp column at the width of its whole form)
 * and the first free-text column takes what the terminal has left, up to FREE_TEXT_ROOM; a cell
 * wider than its column widens it from that row on, and the line is fitted as renderTable fits.
 * Timestamps are short from the start when the line would not fit with them whole. A row laid
 * out otherwise than the last heading (a column widened, cut or left out) is preceded by the
 * heading again, so every row stands under its own.
 */
export class StreamTable {
  private readonly spec: Column[];
  private readonly widths: number[];
  private readonly limit: number | undefined;
  private readonly short: boolean;
  private shownKey = '';

  constructor(
    head: readonly Heading[],
    private readonly colour: Colour,
    private readonly opts: { maxWidth?: number | null; minWidths?: readonly number[]; now?: () => Date } = {},
  ) {
    this.spec = head.map((h) => (typeof h === 'string' ? { head: h } : h));
    this.widths = this.spec.map((h, c) => Math.max(displayWidth(h.head), opts.minWidths?.[c] ?? 0));
    this.limit = opts.maxWidth === undefined ? terminalWidth() : (opts.maxWidth ?? undefined);
    const limit = this.limit;
    this.short = limit !== undefined && this.spec.some((h) => h.timestamp) && lineWidth(this.widths) > limit;
    if (this.short)
      this.spec.forEach((h, c) => {
        if (h.timestamp) this.widths[c] = Math.max(displayWidth(h.head), SHORT_TIME);
      });
    const free = this.spec.findIndex((h) => h.cutFirst);
    if (limit !== undefined && free >= 0) {
      const room = limit - lineWidth(this.widths);
      if (room > 0) this.widths[free]! += Math.min(room, FREE_TEXT_ROOM);
    }
  }

  /** The heading line (print it before the first row). */
  header(): string {
    const { line, key } = this.render(this.headTexts());
    this.shownKey = key;
    return line;
  }

  /** One row's line; preceded by the heading again when the layout changed. */
  row(cells: readonly Cell[]): string {
    const now = this.opts.now?.() ?? new Date();
    const texts = cells.map((cell, c) => {
      const text = cellText(cell);
      return this.short && this.spec[c]?.timestamp ? shortTimestamps(text, now) : text;
    });
    texts.forEach((text, c) => {
      // In a terminal, free text is cut to its column rather than widen it: the columns after it stay put.
      if (this.limit === undefined || !this.spec[c]?.cutFirst)
        this.widths[c] = Math.max(this.widths[c] ?? 0, cellWidth(text));
    });
    const { line, key } = this.render(texts);
    if (key === this.shownKey) return line;
    this.shownKey = key;
    return `${this.render(this.headTexts()).line}\n${line}`;
  }

  private headTexts(): string[] {
    return this.spec.map((h) => this.colour.paint('bold', h.head));
  }

  private render(texts: readonly string[]): { line: string; key: string } {
    const natural = this.widths.slice();
    const { widths, shown } =
      this.limit === undefined
        ? { widths: natural, shown: natural.map((_, c) => c) }
        : fitColumns(this.spec, natural, this.limit);
    let line = '';
    for (const c of shown) {
      const text = this.limit === undefined ? (texts[c] ?? '') : cutToWidth(texts[c] ?? '', widths[c]!);
      line += text + ' '.repeat(Math.max(0, widths[c]! + 2 - displayWidth(text)));
    }
    // Piped, rows are for programs: the heading is printed once.
    const key = this.limit === undefined ? '' : shown.map((c) => `${c}:${widths[c]}`).join(',');
    return { line: line.trimEnd(), key };
  }
}

/** Width of a short timestamp of today (18:20:58); an older one (12-01 18:20) widens its column. */
const SHORT_TIME = 8;
/** Most columns a stream's free text (Error) is given ahead, so the columns after it stay near. */
const FREE_TEXT_ROOM = 48;

/**
 * The width tables must fit (SPEC §7.4): the terminal's columns when stdout is one, else COLUMNS,
 * else no limit (piped output is never cut).
 */
export function terminalWidth(
  stdout?: { isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  // process.stdout is created only for a terminal: for a pipe or a file, creating it loads Node's
  // stream and net modules and builds a socket (src/cli/output.ts), for a width never used.
  stdout ??= stdoutIsTTY() ? process.stdout : undefined;
  if (stdout?.isTTY && typeof stdout.columns === 'number' && stdout.columns > 0) return stdout.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : undefined;
}

/** Narrowest a column is cut to: its heading, and at least a few characters of its text. */
const MIN_COLUMN = 6;

/**
 * Narrows `widths` (in place) until a line fits in `limit` columns, always taking one column from
 * the widest column that can still give one: among `cutFirst` while they can, then among
 * `cuttable` (default: all). A column keeps at least its heading's width (or MIN_COLUMN): a table
 * too wide even then stays too wide (the caller leaves columns out, or the row exceeds).
 */
export function fitWidths(
  widths: number[],
  head: string[],
  limit: number,
  cutFirst: number[] = [],
  cuttable: number[] = widths.map((_, c) => c),
): void {
  const floor = widths.map((w, c) => Math.min(w, Math.max(displayWidth(head[c] ?? ''), MIN_COLUMN)));
  let total = lineWidth(widths);
  const allowed = new Set(cuttable);
  for (const columns of [cutFirst.filter((c) => c < widths.length), cuttable]) {
    while (total > limit) {
      let widest = -1;
      for (const c of columns) {
        if (!allowed.has(c)) continue;
        if (widths[c]! > floor[c]! && (widest < 0 || widths[c]! > widths[widest]!)) widest = c;
      }
      if (widest < 0) break;
      widths[widest]!--;
      total--;
    }
  }
}

// One escape sequence, or one code point of text.
// eslint-disable-next-line no-control-regex
const TOKEN = /(\u001B\[[0-9;]*m)|([\s\S])/gu;

/**
 * `text` cut to `width` columns, the cut marked with `…`; each line of a cell on its own. Colour
 * escapes are kept, also those after the cut, so a style that was opened is closed again.
 */
export function cutToWidth(text: string, width: number): string {
  if (text.includes('\n'))
    return text
      .split('\n')
      .map((line) => cutToWidth(line, width))
      .join('\n');
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  let cutDone = false;
  for (const m of text.matchAll(TOKEN)) {
    if (m[1] !== undefined) {
      out += m[1];
      continue;
    }
    if (cutDone) continue;
    const w = displayWidth(m[2]!);
    if (used + w > width - 1) {
      out += '…';
      cutDone = true;
      continue;
    }
    out += m[2];
    used += w;
  }
  return out;
}

function cellWidth(cell: string): number {
  if (!cell.includes('\n')) return displayWidth(cell);
  let width = 0;
  for (const line of cell.split('\n')) width = Math.max(width, displayWidth(line));
  return width;
}

function cellText(c: Cell): string {
  return c === null || c === undefined ? '' : safeText(String(c));
}

// ansi-regex 5, as string-width 4 strips escapes with it.
const ANSI =
  // eslint-disable-next-line no-control-regex
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;
// An emoji counts two columns (string-width 4 replaces each match of emoji-regex 8 with two
// spaces): a keycap, a flag, or a pictograph shown as emoji (by default or with U+FE0F), with
// its skin tone and ZWJ-joined followers. Compiled on first use, as most tables are ASCII.
// (\p{RGI_Emoji} would be exact but takes half a second to compile.)
let emoji: RegExp | undefined;
const emojiPattern =
  '[#*0-9]\\uFE0F?\\u20E3|\\p{Regional_Indicator}{2}|(?:\\p{Emoji_Presentation}|\\p{Extended_Pictographic}\\uFE0F)' +
  '(?:[\\u{1F3FB}-\\u{1F3FF}]|\\u200D\\p{Extended_Pictographic}\\uFE0F?)*';
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Terminal columns of one line of text, as string-width 4 counts them. */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  emoji ??= new RegExp(emojiPattern, 'gu');
  const s = text.replace(ANSI, '').replace(emoji, '  ');
  let width = 0;
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) continue; // control characters
    if (code >= 0x300 && code <= 0x36f) continue; // combining marks
    width += isFullwidth(code) ? 2 : 1;
  }
  return width;
}

/** East Asian wide and full-width code points (is-fullwidth-code-point 3). */
function isFullwidth(c: number): boolean {
  return (
    c >= 0x1100 &&
    (c <= 0x115f ||
      c === 0x2329 ||
      c === 0x232a ||
      (c >= 0x2e80 && c <= 0x3247 && c !== 0x303f) ||
      (c >= 0x3250 && c <= 0x4dbf) ||
      (c >= 0x4e00 && c <= 0xa4c6) ||
      (c >= 0xa960 && c <= 0xa97c) ||
      (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe10 && c <= 0xfe19) ||
      (c >= 0xfe30 && c <= 0xfe6b) ||
      (c >= 0xff01 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) ||
      (c >= 0x1b000 && c <= 0x1b001) ||
      (c >= 0x1f200 && c <= 0x1f251) ||
      (c >= 0x20000 && c <= 0x3fffd))
  );
}
