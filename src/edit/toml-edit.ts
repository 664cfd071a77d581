// Text-level edits of `[[hooks.declarations]]` in a config.toml (SPEC §6.1): set or remove one
// key of one declaration, delete a declaration, append one. Each edit rescans the text, changes
// the fewest characters it can, and leaves every other byte as it was: comments, key order,
// blank lines, quoting, other tables and other declarations.
//
// A declaration is its `[[hooks.declarations]]` header, the keys below it, and the sub-tables
// that follow (`[hooks.declarations.matcher]`, `...matcher.autonomy]`, `...executor]`, ...) up to
// the next header that is not one of them. A key may be written in a sub-table, as a dotted key
// (`matcher.tool_id = "*"`) or inside an inline table (`env = { K = "v" }`); edits follow the
// style already in place. New keys go next to their siblings in canonical order; new sub-tables
// go in canonical order among the existing ones (matcher, matcher.autonomy, executor).
import { formatKey, formatKeyPath, formatValue, isTomlTable, type TomlTable, type TomlValue } from './toml-format.js';
import { scanToml, type InlineTable, type Item, type KeyValue, type KeyValueItem } from './toml-scan.js';
import { leadingBlank, leadingCommentsStart, lineBreakBefore, splice, trailingEnd } from './toml-tables.js';

export const DECLARATIONS_PATH: readonly string[] = ['hooks', 'declarations'];

/** One table of a declaration written under a header. */
export interface Section {
  /** Path relative to the declaration: [] for the `[[hooks.declarations]]` body itself. */
  path: string[];
  /** Index of its header item. */
  headerIndex: number;
  /** Index just past its last item (the next header, or the end). */
  endIndex: number;
}

export interface DeclarationBlock {
  /** sections[0] is the body under `[[hooks.declarations]]`. */
  sections: Section[];
  headerIndex: number;
  endIndex: number;
}

export interface ConfigLayout {
  text: string;
  items: Item[];
  blocks: DeclarationBlock[];
  /** The file's line break: `\r\n` when it uses them, else `\n`. */
  eol: string;
  /** Whether some line could not be scanned (the file is then not edited). */
  unscanned: boolean;
}

/** A text edit that cannot be made safely; nothing is written. */
export class EditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EditError';
  }
}

export function scanConfigLayout(text: string): ConfigLayout {
  const items = scanToml(text);
  const blocks: DeclarationBlock[] = [];
  let current: DeclarationBlock | undefined;
  const close = (at: number): void => {
    if (!current) return;
    current.endIndex = at;
    current.sections.at(-1)!.endIndex = at;
    blocks.push(current);
    current = undefined;
  };
  items.forEach((item, index) => {
    if (item.kind !== 'header') return;
    if (item.array && sameKeys(item.keys, DECLARATIONS_PATH)) {
      close(index);
      current = {
        sections: [{ path: [], headerIndex: index, endIndex: items.length }],
        headerIndex: index,
        endIndex: items.length,
      };
    } else if (current && item.keys.length > 2 && startsWith(item.keys, DECLARATIONS_PATH)) {
      current.sections.at(-1)!.endIndex = index;
      current.sections.push({ path: item.keys.slice(2), headerIndex: index, endIndex: items.length });
    } else close(index);
  });
  close(items.length);
  return {
    text,
    items,
    blocks,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    unscanned: items.some((i) => i.kind === 'other'),
  };
}

// ---- reading a declaration's keys ----

type Found =
  | { kind: 'statement'; itemIndex: number; section: Section; kv: KeyValue }
  | { kind: 'inlineEntry'; kv: KeyValue; table: InlineTable; entryIndex: number; ownerPath: string[] }
  /** The path runs into an inline table that lacks the rest of it. */
  | { kind: 'inlineTable'; table: InlineTable; base: string[] }
  /** A prefix of the path holds a value that is not a table. */
  | { kind: 'notTable'; at: string[] }
  | { kind: 'none' };

function findPath(layout: ConfigLayout, block: DeclarationBlock, path: readonly string[]): Found {
  for (const section of block.sections) {
    for (const index of kvIndexes(layout, section)) {
      const kv = (layout.items[index] as KeyValueItem).kv;
      const found = matchEntry(kv, [...section.path, ...kv.keys], path, () => ({
        kind: 'statement',
        itemIndex: index,
        section,
        kv,
      }));
      if (found) return found;
    }
  }
  return { kind: 'none' };
}

function matchEntry(kv: KeyValue, full: string[], path: readonly string[], exact: () => Found): Found | undefined {
  if (sameKeys(full, path)) return exact();
  if (full.length >= path.length || !startsWith(path, full)) return undefined;
  if (!kv.inline) return { kind: 'notTable', at: full };
  const table = kv.inline;
  for (let j = 0; j < table.entries.length; j++) {
    const entry = table.entries[j]!;
    const found = matchEntry(entry, [...full, ...entry.keys], path, () => ({
      kind: 'inlineEntry',
      kv: entry,
      table,
      entryIndex: j,
      ownerPath: full,
    }));
    if (found) return found;
  }
  return { kind: 'inlineTable', table, base: full };
}

function kvIndexes(layout: ConfigLayout, section: Section): number[] {
  const out: number[] = [];
  for (let i = section.headerIndex + 1; i < section.endIndex; i++) if (layout.items[i]!.kind === 'kv') out.push(i);
  return out;
}

function blockAt(layout: ConfigLayout, index: number): DeclarationBlock {
  const block = layout.blocks[index];
  if (!block) throw new EditError(`declaration ${index + 1} is not written as a [[hooks.declarations]] table`);
  return block;
}

// ---- setting a key ----

/** Sets `path` (relative to declaration `blockIndex`) to `value`, in the style already in place. */
export function setDeclarationValue(
  text: string,
  blockIndex: number,
  path: readonly string[],
  value: TomlValue,
): string {
  const layout = scanConfigLayout(text);
  const block = blockAt(layout, blockIndex);
  const found = findPath(layout, block, path);
  switch (found.kind) {
    case 'statement':
    case 'inlineEntry':
      return splice(text, found.kv.valueStart, found.kv.valueEnd, formatValue(value));
    case 'inlineTable':
      return insertIntoInline(text, found.table, path.slice(found.base.length), value);
    case 'notTable':
      throw new EditError(`cannot set ${formatKeyPath(path)}: ${formatKeyPath(found.at)} is not a table`);
    case 'none':
      if (block.sections.some((s) => startsWith(s.path, path))) {
        throw new EditError(`cannot set ${formatKeyPath(path)}: it is written as a table`);
      }
      return placeNewKey(layout, blockIndex, path, value);
  }
}

/** String maps written as one inline table when they do not exist yet. */
const INLINE_MAPS = new Set(['env', 'secret_env', 'metadata']);

function placeNewKey(layout: ConfigLayout, blockIndex: number, path: readonly string[], value: TomlValue): string {
  const block = layout.blocks[blockIndex]!;
  const parent = path.slice(0, -1);
  const leaf = path.at(-1)!;
  // The parent has its own section (the declaration body for a top-level key).
  const section = block.sections.find((s) => sameKeys(s.path, parent));
  if (section) return insertInSection(layout, section, [leaf], value);
  // An ancestor is written with dotted keys: keep writing dotted keys next to them.
  for (let k = parent.length; k >= 1; k--) {
    const ancestor = path.slice(0, k);
    for (const s of block.sections) {
      if (s.path.length >= k || !startsWith(ancestor, s.path)) continue;
      const under = kvIndexes(layout, s).filter((i) => {
        const full = [...s.path, ...(layout.items[i] as KeyValueItem).kv.keys];
        return full.length > k && startsWith(full, ancestor);
      });
      if (under.length > 0) return insertLineAfter(layout, under.at(-1)!, path.slice(s.path.length), value);
    }
  }
  // A missing string map is written inline in its own parent: env = { K = "v" }.
  if (parent.length > 0 && INLINE_MAPS.has(parent.at(-1)!)) {
    return setDeclarationValue(layout.text, blockIndex, parent, { [leaf]: value });
  }
  return insertSection(layout, block, parent, [[leaf, value]]);
}

/** Canonical key order per section, used to place a new key next to its siblings. */
const KEY_ORDER: Record<string, readonly string[]> = {
  '': [
    'name',
    'event',
    'mode',
    'enabled',
    'required',
    'priority',
    'timeout',
    'command',
    'args',
    'env',
    'secret_env',
    'metadata',
    'matcher',
    'executor',
  ],
  executor: ['kind', 'command', 'args', 'env', 'secret_env'],
};

/** Canonical order of sub-tables, used to place a new one among the existing ones. */
const SECTION_RANK: Record<string, number> = {
  matcher: 10,
  'matcher.autonomy': 11,
  executor: 20,
  'executor.env': 21,
  'executor.secret_env': 22,
  env: 30,
  secret_env: 31,
  metadata: 40,
};

const sectionRank = (path: readonly string[]): number => SECTION_RANK[path.join('.')] ?? 100;

function insertInSection(layout: ConfigLayout, section: Section, keys: readonly string[], value: TomlValue): string {
  const kvs = kvIndexes(layout, section);
  let anchor = kvs.at(-1) ?? section.headerIndex;
  const order = KEY_ORDER[section.path.join('.')];
  if (order && kvs.length > 0) {
    const rank = (key: string): number => {
      const i = order.indexOf(key);
      return i === -1 ? order.length : i;
    };
    const wanted = rank(keys[0]!);
    anchor = section.headerIndex;
    for (const i of kvs) if (rank((layout.items[i] as KeyValueItem).kv.keys[0]!) <= wanted) anchor = i;
  }
  return insertLineAfter(layout, anchor, keys, value, kvs[0]);
}

/** Inserts `keys = value` on a new line after item `anchor`, indented like its neighbours. */
function insertLineAfter(
  layout: ConfigLayout,
  anchor: number,
  keys: readonly string[],
  value: TomlValue,
  indentFrom?: number,
): string {
  const { text, items, eol } = layout;
  // Like the key it follows, else the section's first key, else the header it follows.
  const ref = items[anchor]!.kind === 'kv' ? anchor : (indentFrom ?? anchor);
  const indent = leadingBlank(text, items[ref]!.start);
  const at = items[anchor]!.end;
  return splice(
    text,
    at,
    at,
    `${lineBreakBefore(text, at, eol)}${indent}${formatKeyPath(keys)} = ${formatValue(value)}${eol}`,
  );
}

function insertSection(
  layout: ConfigLayout,
  block: DeclarationBlock,
  path: readonly string[],
  entries: [string, TomlValue][],
): string {
  const { text, items, eol } = layout;
  // Indented like the declaration's own header and keys.
  const indent = leadingBlank(text, items[block.headerIndex]!.start);
  const firstKey = kvIndexes(layout, block.sections[0]!)[0];
  const keyIndent = firstKey === undefined ? indent : leadingBlank(text, items[firstKey]!.start);
  const header = `${indent}[${formatKeyPath([...DECLARATIONS_PATH, ...path])}]`;
  const body = entries.map(([k, v]) => `${keyIndent}${formatKey(k)} = ${formatValue(v)}${eol}`).join('');
  const rank = sectionRank(path);
  const before = block.sections.slice(1).find((s) => sectionRank(s.path) > rank);
  if (before) {
    const at = items[leadingCommentsStart(items, before.headerIndex)]!.start;
    return splice(text, at, at, `${header}${eol}${body}${eol}`);
  }
  // After the declaration's last line and the comment lines directly below it.
  const at = items[trailingEnd(layout, block) - 1]!.end;
  return splice(text, at, at, `${lineBreakBefore(text, at, eol)}${eol}${header}${eol}${body}`);
}

function insertIntoInline(text: string, table: InlineTable, keys: readonly string[], value: TomlValue): string {
  let nested: TomlValue = value;
  for (let k = keys.length - 1; k >= 1; k--) nested = { [keys[k]!]: nested };
  const entry = `${formatKey(keys[0]!)} = ${formatValue(nested)}`;
  const last = table.entries.at(-1);
  if (!last) return splice(text, table.open, table.close + 1, `{ ${entry} }`);
  return splice(text, last.valueEnd, last.valueEnd, `, ${entry}`);
}

// ---- removing a key ----

/**
 * Removes `path` from declaration `blockIndex`; nothing happens when it is not written. A
 * sub-table left with no keys (and no comments) goes too, and so does an emptied inline table.
 */
export function unsetDeclarationValue(text: string, blockIndex: number, path: readonly string[]): string {
  const layout = scanConfigLayout(text);
  const found = findPath(layout, blockAt(layout, blockIndex), path);
  switch (found.kind) {
    case 'statement': {
      const item = layout.items[found.itemIndex]!;
      return removeSectionIfEmpty(splice(text, item.start, item.end, ''), blockIndex, found.section.path);
    }
    case 'inlineEntry': {
      const { table, entryIndex: k } = found;
      if (table.entries.length === 1) return unsetDeclarationValue(text, blockIndex, found.ownerPath);
      const entries = table.entries;
      if (k < entries.length - 1) return splice(text, entries[k]!.keyStart, entries[k + 1]!.keyStart, '');
      return splice(text, entries[k - 1]!.valueEnd, entries[k]!.valueEnd, '');
    }
    case 'notTable':
      throw new EditError(`cannot remove ${formatKeyPath(path)}: ${formatKeyPath(found.at)} is not a table`);
    default:
      return text;
  }
}

function removeSectionIfEmpty(text: string, blockIndex: number, path: readonly string[]): string {
  if (path.length === 0) return text;
  const layout = scanConfigLayout(text);
  const section = layout.blocks[blockIndex]?.sections.find((s) => sameKeys(s.path, path));
  if (!section) return text;
  const { items } = layout;
  // Comment lines leading straight into the next header belong to that header.
  const ownEnd = section.endIndex < items.length ? leadingCommentsStart(items, section.endIndex) : section.endIndex;
  for (let i = section.headerIndex + 1; i < ownEnd; i++) if (items[i]!.kind !== 'blank') return text;
  if (leadingCommentsStart(items, section.headerIndex) !== section.headerIndex) return text;
  const header = items[section.headerIndex]!;
  const before = items[section.headerIndex - 1];
  const after = items[section.headerIndex + 1];
  if (before?.kind === 'blank') return splice(text, before.start, header.end, '');
  if (after?.kind === 'blank' && section.headerIndex + 1 < ownEnd) return splice(text, header.start, after.end, '');
  return splice(text, header.start, header.end, '');
}

// ---- whole declarations ----

/**
 * Removes declaration `blockIndex` with the comment lines directly above it and directly below
 * it (unless those lead straight into the next header), and one blank line that separated it.
 */
export function deleteDeclarationBlock(text: string, blockIndex: number): string {
  const layout = scanConfigLayout(text);
  const block = blockAt(layout, blockIndex);
  const { items } = layout;
  let from = leadingCommentsStart(items, block.headerIndex);
  let to = trailingEnd(layout, block);
  if (from > 0 && items[from - 1]!.kind === 'blank') from--;
  else if (to < items.length && items[to]!.kind === 'blank') to++;
  return splice(text, items[from]!.start, to > from ? items[to - 1]!.end : items[from]!.start, '');
}

/**
 * Adds a declaration after the last one (or at the end of the file), separated by one blank
 * line. `blockText` ends with a line break. Deleting it again gives back the original text
 * (when that text ended with a line break, or was empty).
 */
export function appendDeclarationBlock(text: string, blockText: string): string {
  if (text === '') return blockText;
  const layout = scanConfigLayout(text);
  const last = layout.blocks.at(-1);
  const at = last ? layout.items[trailingEnd(layout, last) - 1]!.end : text.length;
  return splice(text, at, at, `${lineBreakBefore(text, at, layout.eol)}${layout.eol}${blockText}`);
}

/**
 * A new declaration in the canonical style: `[[hooks.declarations]]`, then name, event, mode,
 * enabled, required, priority, timeout, command, args, env/secret_env/metadata as inline tables,
 * then `[hooks.declarations.matcher]`, `[hooks.declarations.matcher.autonomy]` and other tables as
 * sections, each after a blank line. Ends with a line break.
 */
export function formatDeclarationBlock(declaration: TomlTable, eol = '\n'): string {
  const lines = [`[[${formatKeyPath(DECLARATIONS_PATH)}]]`, ...valueLines(declaration, [])];
  const sections: [string[], TomlTable][] = [];
  collectSections(declaration, [], sections);
  sections.sort(([a], [b]) => sectionRank(a) - sectionRank(b));
  for (const [path, table] of sections) {
    const body = valueLines(table, path);
    // A table holding only tables needs no header of its own (a matcher with autonomy only).
    if (body.length > 0) lines.push('', `[${formatKeyPath([...DECLARATIONS_PATH, ...path])}]`, ...body);
  }
  return lines.join(eol) + eol;
}

const isSectionValue = (key: string, value: TomlValue): value is TomlTable =>
  isTomlTable(value) && !INLINE_MAPS.has(key);

/** `key = value` lines for the entries of a table that are not written as sections. */
function valueLines(table: TomlTable, path: readonly string[]): string[] {
  const order = KEY_ORDER[path.join('.')] ?? [];
  const rank = (key: string): number => {
    const i = order.indexOf(key);
    return i === -1 ? order.length : i;
  };
  return Object.keys(table)
    .filter((key) => !isSectionValue(key, table[key]!))
    .sort((a, b) => rank(a) - rank(b))
    .map((key) => `${formatKey(key)} = ${formatValue(table[key]!)}`);
}

function collectSections(table: TomlTable, path: readonly string[], out: [string[], TomlTable][]): void {
  for (const [key, value] of Object.entries(table)) {
    if (!isSectionValue(key, value)) continue;
    out.push([[...path, key], value]);
    collectSections(value, [...path, key], out);
  }
}

export function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** Whether `path` begins with every segment of `prefix`. */
export function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => s === path[i]);
}
