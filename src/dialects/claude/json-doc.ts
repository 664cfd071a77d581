// Claude's JSON files (settings, hooks.json, plugin.json) read with positions: the project's
// JSON-with-positions parser, a Locator over its tree (for file:line:col on every diagnostic),
// and the text span of any node (for text-preserving edits).
import {
  jsonEntry,
  jsonValue,
  parseJsonWithPositions,
  type JsonNode,
  type JsonObject,
} from '../../declarations/json.js';
import type { Diagnostic } from '../../declarations/diagnostics.js';
import { readSourceFile, type Locator, type PathSeg, type Position } from '../../declarations/source-file.js';
import { claudeDiagnostic } from './codes.js';
import type { ClaudeSource } from './model.js';

export type { JsonNode, JsonObject };

export interface JsonDoc {
  file: string;
  text: string;
  root: JsonNode;
  /** The plain value (JSON.parse's: the last of repeated keys wins). */
  value: unknown;
  locate: Locator;
}

export type JsonRead = { kind: 'missing' } | { kind: 'bad'; diagnostic: Diagnostic } | { kind: 'json'; doc: JsonDoc };

export async function readJsonFile(file: string, source?: ClaudeSource): Promise<JsonRead> {
  const read = await readSourceFile(file, undefined, { json: true });
  if (read.kind === 'missing') return read;
  if (read.kind === 'bad') {
    if (source !== undefined) read.diagnostic.source = source;
    return read;
  }
  return parseJsonDoc(read.text, file, source);
}

/** Parses a JSON text (a BOM tolerated); a syntax error is a `json_parse_error` diagnostic. */
export function parseJsonDoc(text: string, file: string, source?: ClaudeSource): JsonRead {
  const parsed = parseJsonWithPositions(text);
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    return {
      kind: 'bad',
      diagnostic: claudeDiagnostic(
        'error',
        'json_parse_error',
        `invalid JSON: ${message}`,
        file,
        { line, column },
        {
          source,
        },
      ),
    };
  }
  const root = parsed.value;
  return { kind: 'json', doc: { file, text, root, value: jsonValue(root), locate: jsonLocator(root) } };
}

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

/** A key's position (its opening quote), or a list item's; the root is line 1. */
export function jsonLocator(root: JsonNode): Locator {
  return (path) => {
    let node: JsonNode | undefined = root;
    let at: Position = { line: root.line, column: root.column };
    for (const seg of path) {
      if (node === undefined) return undefined;
      if (node.kind === 'object' && typeof seg === 'string') {
        const entry = jsonEntry(node, seg);
        if (entry === undefined) return undefined;
        at = { line: entry.line, column: entry.column };
        node = entry.value;
      } else if (node.kind === 'array' && typeof seg === 'number') {
        node = node.items[seg];
        if (node === undefined) return undefined;
        at = { line: node.line, column: node.column };
      } else return undefined;
    }
    return at;
  };
}

// ---- spans, for edits ----

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
