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
import { readSourceFile, type Locator, type Position } from '../../declarations/source-file.js';
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
