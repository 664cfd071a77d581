// Human tables: left-aligned columns, two spaces apart, no borders, trailing white space trimmed.
// Colour comes only from the colour module (the head is bold when colour is on).
//
// Why not cli-table3: its layout pass is quadratic in the number of rows (10,000 rows took 30 s
// under `hooks list`) and it is a dozen modules to load on every start. This renders the same
// text as the cli-table3 set-up it replaces (compact, no borders, padding 0 left / 2 right): a
// cell may hold several lines, and width is measured as cli-table3 measured it (string-width 4).
import type { Colour } from './colour.js';
import { safeText } from './safe-text.js';

export type Cell = string | number | null | undefined;

export interface TableOptions {
  /** Columns the table may take: undefined asks the terminal (terminalWidth), null means no limit. */
  maxWidth?: number | null;
  /** Columns (by index) that give up their width first, e.g. a free-text Why or Error. */
  cutFirst?: number[];
}

export function renderTable(head: string[], rows: Cell[][], colour: Colour, opts: TableOptions = {}): string {
  const table = rows.map((row) => row.map(cellText));
  if (head.length > 0) table.unshift(head.map((h) => colour.paint('bold', h)));
  let columns = 0;
  for (const row of table) columns = Math.max(columns, row.length);
  const widths = new Array<number>(columns).fill(0);
  for (const row of table) {
    for (let c = 0; c < row.length; c++) widths[c] = Math.max(widths[c]!, cellWidth(row[c]!));
  }
  const limit = opts.maxWidth === undefined ? terminalWidth() : (opts.maxWidth ?? undefined);
  const natural = widths.slice();
  if (limit !== undefined) fitWidths(widths, head, limit, opts.cutFirst);
  const cut = widths.some((w, c) => w < natural[c]!);
  const pad = (cell: string, c: number) => {
    const text = cut ? cutToWidth(cell, widths[c]!) : cell;
    return text + ' '.repeat(widths[c]! + 2 - displayWidth(text));
  };
  const out: string[] = [];
  for (const row of table) {
    if (!row.some((cell) => cell.includes('\n'))) {
      let line = '';
      for (let c = 0; c < columns; c++) line += pad(row[c] ?? '', c);
      out.push(line.trimEnd());
      continue;
    }
    // A cell of several lines makes the row that many lines high.
    const cells = row.map((cell) => cell.split('\n'));
    const height = Math.max(...cells.map((lines) => lines.length));
    for (let k = 0; k < height; k++) {
      let line = '';
      for (let c = 0; c < columns; c++) line += pad(cells[c]?.[k] ?? '', c);
      out.push(line.trimEnd());
    }
  }
  return out.join('\n');
}

/**
 * The width tables must fit (SPEC §7.4): the terminal's columns when stdout is one, else COLUMNS,
 * else no limit (piped output is never cut).
 */
export function terminalWidth(
  stdout: { isTTY?: boolean; columns?: number } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  if (stdout.isTTY && typeof stdout.columns === 'number' && stdout.columns > 0) return stdout.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : undefined;
}

/** Narrowest a column is cut to: its heading, and at least a few characters of its text. */
const MIN_COLUMN = 6;

/**
 * Narrows `widths` (in place) until a line fits in `limit` columns, always taking one column from
 * the widest column that can still give one: among `cutFirst` while they can, then among all. A column keeps at least its heading's width (or
 * MIN_COLUMN): a table too wide even then wraps, as it did before.
 */
export function fitWidths(widths: number[], head: string[], limit: number, cutFirst: number[] = []): void {
  const floor = widths.map((w, c) => Math.min(w, Math.max(displayWidth(head[c] ?? ''), MIN_COLUMN)));
  let total = widths.reduce((sum, w) => sum + w, 0) + 2 * Math.max(0, widths.length - 1);
  const all = widths.map((_, c) => c);
  for (const columns of [cutFirst.filter((c) => c < widths.length), all]) {
    while (total > limit) {
      let widest = -1;
      for (const c of columns) {
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
