// Text-preserving edits of a JSON document (claude and codex hook files): each edit rewrites only
// the array or object it changes, new text takes the file's indentation and line endings, and
// every other byte stays. Pure functions over text; each parses the text it is given (a hooks
// file is small), so edits compose by feeding one's result to the next. Dialect-neutral: the
// dialects' edit code (src/dialects/*/…-edit.ts) says which paths to change.
import type { PathSeg } from '../declarations/source-file.js';
import { jsonEntry, lineIndexAt, lineStartsOf, parseJsonWithPositions, type JsonNode } from '../declarations/json.js';

export interface JsonStyle {
  /** One level of indentation (two spaces when the file shows none). */
  unit: string;
  eol: '\n' | '\r\n';
}

export class JsonEditError extends Error {}

/** The indentation unit and line ending a text already uses. */
export function detectStyle(text: string): JsonStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /\n([ \t]+)["{[\]}]/.exec(text);
  return { unit: m ? m[1]! : '  ', eol };
}

interface Located {
  node: JsonNode;
  start: number;
  end: number;
  starts: number[];
}

function locate(text: string, path: readonly PathSeg[]): Located {
  const parsed = parseJsonWithPositions(text);
  if (!parsed.ok) throw new JsonEditError(`the file is not valid JSON: ${parsed.error.message}`);
  const node = nodeAt(parsed.value, path);
  if (node === undefined) throw new JsonEditError(`nothing at ${path.join('.')}`);
  const starts = lineStartsOf(text);
  const start = offsetOf(starts, node);
  return { node, start, end: valueEnd(text, start), starts };
}

/** The white space that starts the line holding `offset`. */
function indentAt(text: string, starts: readonly number[], offset: number): string {
  return /^[ \t]*/.exec(text.slice(starts[lineIndexAt(starts, offset)]!))![0];
}

/** A value as JSON text at an indentation: nested lines indented from `indent`. */
export function formatJson(value: unknown, style: JsonStyle, indent: string, inline = false): string {
  if (inline) return JSON.stringify(value).replace(/":/g, '": ').replace(/,"/g, ', "');
  return JSON.stringify(value, null, style.unit)
    .split('\n')
    .join(style.eol + indent);
}

const splice = (text: string, from: number, to: number, insert: string) =>
  text.slice(0, from) + insert + text.slice(to);

/** The children of an object or array with their start offsets. */
function children(loc: Located): { key?: string; start: number; valueStart: number }[] {
  const n = loc.node;
  if (n.kind === 'object') {
    return n.entries.map((e) => ({
      key: e.key,
      start: offsetOf(loc.starts, e),
      valueStart: offsetOf(loc.starts, e.value),
    }));
  }
  if (n.kind === 'array')
    return n.items.map((i) => ({ start: offsetOf(loc.starts, i), valueStart: offsetOf(loc.starts, i) }));
  throw new JsonEditError('not an object or a list');
}

/** Adds a child at the end of an object (`key` given) or array, in the container's style. */
function appendChild(
  text: string,
  path: readonly PathSeg[],
  key: string | undefined,
  value: unknown,
  style: JsonStyle,
): string {
  const loc = locate(text, path);
  const kids = children(loc);
  const ownIndent = indentAt(text, loc.starts, loc.start);
  const close = loc.end - 1;
  const keyText = key === undefined ? '' : `${JSON.stringify(key)}: `;
  if (kids.length === 0) {
    const childIndent = ownIndent + style.unit;
    const open = text[loc.start]!;
    const shut = text[close]!;
    const body = `${open}${style.eol}${childIndent}${keyText}${formatJson(value, style, childIndent)}${style.eol}${ownIndent}${shut}`;
    return splice(text, loc.start, loc.end, body);
  }
  const last = kids[kids.length - 1]!;
  const lastEnd = valueEnd(text, last.valueStart);
  const multiline = text.slice(loc.start, kids[0]!.start).includes('\n');
  if (!multiline) return splice(text, lastEnd, lastEnd, `, ${keyText}${formatJson(value, style, '', true)}`);
  const childIndent = indentAt(text, loc.starts, last.start);
  return splice(
    text,
    lastEnd,
    lastEnd,
    `,${style.eol}${childIndent}${keyText}${formatJson(value, style, childIndent)}`,
  );
}

/** Removes child `i` of an object or array, with its comma. */
function removeChild(text: string, path: readonly PathSeg[], i: number): string {
  const loc = locate(text, path);
  const kids = children(loc);
  if (i < 0 || i >= kids.length) throw new JsonEditError(`no item ${i} at ${path.join('.')}`);
  if (kids.length === 1) return splice(text, loc.start, loc.end, text[loc.start]! + text[loc.end - 1]!);
  if (i < kids.length - 1) return splice(text, kids[i]!.start, kids[i + 1]!.start, '');
  const prevEnd = valueEnd(text, kids[i - 1]!.valueStart);
  return splice(text, prevEnd, valueEnd(text, kids[i]!.valueStart), '');
}

/** Sets `key` of the object at `path`: its last entry's value is replaced, or the entry is added. */
export function setProperty(
  text: string,
  path: readonly PathSeg[],
  key: string,
  value: unknown,
  style: JsonStyle,
): string {
  const loc = locate(text, path);
  if (loc.node.kind !== 'object') throw new JsonEditError(`${path.join('.') || 'the file'} is not an object`);
  const entry = jsonEntry(loc.node, key);
  if (entry === undefined) return appendChild(text, path, key, value, style);
  const start = offsetOf(loc.starts, entry.value);
  const inline = !text.slice(loc.start, loc.end).includes('\n');
  return splice(
    text,
    start,
    valueEnd(text, start),
    formatJson(value, style, indentAt(text, loc.starts, start), inline),
  );
}

/** Removes every entry `key` of the object at `path` (nothing when it has none). */
export function removeProperty(text: string, path: readonly PathSeg[], key: string): string {
  for (;;) {
    const loc = locate(text, path);
    if (loc.node.kind !== 'object') throw new JsonEditError(`${path.join('.') || 'the file'} is not an object`);
    const i = loc.node.entries.findIndex((e) => e.key === key);
    if (i === -1) return text;
    text = removeChild(text, path, i);
  }
}

export function appendItem(text: string, path: readonly PathSeg[], value: unknown, style: JsonStyle): string {
  return appendChild(text, path, undefined, value, style);
}

export function removeItem(text: string, path: readonly PathSeg[], index: number): string {
  return removeChild(text, path, index);
}

// ---- spans ----

/** The node at a path (the last of repeated keys), or undefined. */
export function nodeAt(root: JsonNode, path: readonly PathSeg[]): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const seg of path) {
    if (node === undefined) return undefined;
    if (node.kind === 'object' && typeof seg === 'string') node = jsonEntry(node, seg)?.value;
    else if (node.kind === 'array' && typeof seg === 'number') node = node.items[seg];
    else return undefined;
  }
  return node;
}

/** The offset of a 1-based line and column. */
export function offsetOf(starts: readonly number[], pos: { line: number; column: number }): number {
  return starts[pos.line - 1]! + pos.column - 1;
}

/** The offset just past the JSON value that starts at `start` (the text is known to parse). */
export function valueEnd(text: string, start: number): number {
  const c = text[start];
  if (c === '"') return stringEnd(text, start);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (ch === '"') i = stringEnd(text, i) - 1;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return text.length;
  }
  const m = /^[^\s,\]}]+/.exec(text.slice(start, start + 64));
  return start + (m ? m[0].length : 0);
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
