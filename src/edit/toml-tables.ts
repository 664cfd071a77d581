// Table-level edits of a TOML text, dialect-neutral: find the tables written under `[a.b]` and
// `[[a.b]]` headers, set or remove one plain key of one table, remove whole tables, and insert
// new tables after a given one (or at the end). Like toml-edit.ts (the compozy declaration editor,
// which shares the span helpers below), each edit rescans the text, changes the fewest characters
// it can and leaves every other byte as it was: comments, blank lines, key order, other tables.
//
// A table here is one header and the items up to the next header. Which tables belong together
// (an array-of-tables entry and its sub-tables) is the caller's to say, from their keys.
import { formatKey, formatKeyPath, formatValue, type TomlValue } from './toml-format.js';
import { scanToml, type Item, type KeyValueItem } from './toml-scan.js';

export interface TomlTableSpan {
  /** The header's decoded keys: `[[hooks.PreToolUse.hooks]]` → ['hooks', 'PreToolUse', 'hooks']. */
  keys: string[];
  array: boolean;
  /** Index of the header item. */
  headerIndex: number;
  /** Index just past the table's last item (the next header, or the end). */
  endIndex: number;
}

export interface TomlLayout {
  text: string;
  items: Item[];
  tables: TomlTableSpan[];
  /** The file's line break: `\r\n` when it uses them, else `\n`. */
  eol: string;
  /** Some line could not be scanned: the text is then not edited. */
  unscanned: boolean;
}

/** A text edit that cannot be made safely; nothing is written. */
export class TomlTableEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TomlTableEditError';
  }
}

export function scanTomlTables(text: string): TomlLayout {
  const items = scanToml(text);
  const tables: TomlTableSpan[] = [];
  items.forEach((item, index) => {
    if (item.kind !== 'header') return;
    const last = tables.at(-1);
    if (last) last.endIndex = index;
    tables.push({ keys: item.keys, array: item.array, headerIndex: index, endIndex: items.length });
  });
  return {
    text,
    items,
    tables,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    unscanned: items.some((i) => i.kind === 'other'),
  };
}

/**
 * Every key/value statement with its full key path (the table's keys, then the statement's):
 * `[hooks]` + `state.x = 1` → ['hooks', 'state', 'x']; statements above the first header have
 * the root's path.
 */
export function keyPaths(layout: TomlLayout): { path: string[]; itemIndex: number }[] {
  const out: { path: string[]; itemIndex: number }[] = [];
  let base: string[] = [];
  layout.items.forEach((item, itemIndex) => {
    if (item.kind === 'header') base = item.keys;
    else if (item.kind === 'kv') out.push({ path: [...base, ...item.kv.keys], itemIndex });
  });
  return out;
}

function usable(text: string): TomlLayout {
  const layout = scanTomlTables(text);
  if (layout.unscanned) throw new TomlTableEditError('a line of the file could not be read as TOML');
  return layout;
}

function tableAt(layout: TomlLayout, tableIndex: number): TomlTableSpan {
  const t = layout.tables[tableIndex];
  if (!t) throw new TomlTableEditError(`no table ${tableIndex}`);
  return t;
}

/** The statement `key = …` written directly in a table (a one-segment key), if any. */
export function tableKeyItem(layout: TomlLayout, table: TomlTableSpan, key: string): number | undefined {
  for (let i = table.headerIndex + 1; i < table.endIndex; i++) {
    const item = layout.items[i]!;
    if (item.kind === 'kv' && item.kv.keys.length === 1 && item.kv.keys[0] === key) return i;
  }
  return undefined;
}

function kvIndexes(layout: TomlLayout, table: TomlTableSpan): number[] {
  const out: number[] = [];
  for (let i = table.headerIndex + 1; i < table.endIndex; i++) if (layout.items[i]!.kind === 'kv') out.push(i);
  return out;
}

/**
 * Sets `key = value` in table `tableIndex`: the value of an existing statement is replaced in
 * place; a new key goes after the last key that comes before it in `order` (keys not in `order`
 * rank last), else after the header, indented like the table's other keys.
 */
export function setTableKey(
  text: string,
  tableIndex: number,
  key: string,
  value: TomlValue,
  order: readonly string[] = [],
): string {
  const layout = usable(text);
  const table = tableAt(layout, tableIndex);
  const at = tableKeyItem(layout, table, key);
  if (at !== undefined) {
    const kv = (layout.items[at] as KeyValueItem).kv;
    return splice(text, kv.valueStart, kv.valueEnd, formatValue(value));
  }
  for (let i = table.headerIndex + 1; i < table.endIndex; i++) {
    const item = layout.items[i]!;
    if (item.kind === 'kv' && item.kv.keys[0] === key) {
      throw new TomlTableEditError(`cannot set ${formatKey(key)}: it is written as a dotted key`);
    }
  }
  const kvs = kvIndexes(layout, table);
  const rank = (k: string): number => {
    const i = order.indexOf(k);
    return i === -1 ? order.length : i;
  };
  let anchor = table.headerIndex;
  for (const i of kvs) if (rank((layout.items[i] as KeyValueItem).kv.keys[0]!) <= rank(key)) anchor = i;
  if (anchor === table.headerIndex && kvs.length > 0 && order.length === 0) anchor = kvs.at(-1)!;
  const indentFrom = kvs[0] ?? table.headerIndex;
  const indent = leadingBlank(text, layout.items[indentFrom]!.start);
  const end = layout.items[anchor]!.end;
  return splice(
    text,
    end,
    end,
    `${lineBreakBefore(text, end, layout.eol)}${indent}${formatKey(key)} = ${formatValue(value)}${layout.eol}`,
  );
}

/** Removes the statement `key = …` of table `tableIndex`; nothing happens when it is not written. */
export function removeTableKey(text: string, tableIndex: number, key: string): string {
  const layout = usable(text);
  const at = tableKeyItem(layout, tableAt(layout, tableIndex), key);
  if (at === undefined) return text;
  const item = layout.items[at]!;
  return splice(text, item.start, item.end, '');
}

/** Whether a table holds nothing but blank lines (no key, no comment). */
export function tableIsEmpty(layout: TomlLayout, tableIndex: number): boolean {
  const table = tableAt(layout, tableIndex);
  const end = ownEnd(layout, table);
  for (let i = table.headerIndex + 1; i < end; i++) if (layout.items[i]!.kind !== 'blank') return false;
  return true;
}

/**
 * Removes the tables `from` … `to - 1` (consecutive in the text), with the comment lines
 * directly above the first and directly below the last (unless those lead straight into the
 * next header), and one blank line that separated them from what stays.
 */
export function removeTables(text: string, from: number, to: number): string {
  const layout = usable(text);
  const first = tableAt(layout, from);
  const last = tableAt(layout, to - 1);
  const { items } = layout;
  let start = leadingCommentsStart(items, first.headerIndex);
  let end = trailingEnd(layout, last);
  if (start > 0 && items[start - 1]!.kind === 'blank') start--;
  else if (end < items.length && items[end]!.kind === 'blank') end++;
  return splice(text, items[start]!.start, end > start ? items[end - 1]!.end : items[start]!.start, '');
}

/**
 * Inserts `block` (whole lines, ending with a line break) after table `afterTable`'s content
 * (and the comments directly below it), or at the end of the text when `afterTable` is
 * undefined; a blank line separates it from what comes before, and from the table that follows
 * when `separateBelow`.
 */
export function insertBlock(
  text: string,
  afterTable: number | undefined,
  block: string,
  opts: { separate?: boolean } = {},
): string {
  if (text.trim() === '') return text + block;
  const layout = usable(text);
  const separate = opts.separate ?? true;
  const gap = separate ? layout.eol : '';
  if (afterTable === undefined) {
    const at = text.length;
    const lastBlank = layout.items.at(-1)?.kind === 'blank';
    return text + lineBreakBefore(text, at, layout.eol) + (lastBlank ? '' : gap) + block;
  }
  const table = tableAt(layout, afterTable);
  const end = trailingEnd(layout, table);
  const at = layout.items[end - 1]!.end;
  // Tables that follow keep a blank line between them and the new block when they had one.
  const below = end < layout.items.length && layout.items[end]!.kind !== 'blank' && separate ? layout.eol : '';
  return splice(text, at, at, `${lineBreakBefore(text, at, layout.eol)}${gap}${block}${below}`);
}

/** `[a.b]` or `[[a.b]]` and its `key = value` lines, ending with a line break. */
export function formatTable(
  keys: readonly string[],
  array: boolean,
  entries: readonly [string, TomlValue][],
  eol = '\n',
): string {
  const header = array ? `[[${formatKeyPath(keys)}]]` : `[${formatKeyPath(keys)}]`;
  return [header, ...entries.map(([k, v]) => `${formatKey(k)} = ${formatValue(v)}`)].join(eol) + eol;
}

// ---- spans (shared with toml-edit.ts) ----

/** Index of the first comment line directly above item `index` (or `index` itself). */
export function leadingCommentsStart(items: readonly Item[], index: number): number {
  let i = index;
  while (i > 0 && items[i - 1]!.kind === 'comment') i--;
  return i;
}

/** The end of a table's own items: comment lines leading into the next header belong to it. */
function ownEnd(layout: TomlLayout, table: { endIndex: number }): number {
  return table.endIndex < layout.items.length ? leadingCommentsStart(layout.items, table.endIndex) : table.endIndex;
}

/** Index just past a block's content and the comment lines directly below it. */
export function trailingEnd(
  layout: { items: readonly Item[] },
  block: { headerIndex: number; endIndex: number },
): number {
  let core = block.headerIndex;
  for (let i = block.headerIndex; i < block.endIndex; i++) {
    const kind = layout.items[i]!.kind;
    if (kind !== 'blank' && kind !== 'comment') core = i;
  }
  core++;
  let t = core;
  while (t < block.endIndex && layout.items[t]!.kind === 'comment') t++;
  // Comments that lead straight into the next header belong to that header.
  return t === block.endIndex && block.endIndex < layout.items.length ? core : t;
}

export function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/** A line break to write first when inserting at the end of a last line that has none. */
export function lineBreakBefore(text: string, at: number, eol: string): string {
  return at > 0 && at === text.length && !text.endsWith('\n') ? eol : '';
}

export function leadingBlank(text: string, lineStart: number): string {
  let i = lineStart;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return text.slice(lineStart, i);
}
