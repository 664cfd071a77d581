// hooks.json (codex.md §2.1, §2.2): the project's positional JSON parser, then Codex's strict
// reading: only `description` and `hooks` at the root, no duplicate field anywhere in the hook
// structure (serde rejects both), then the shared per-handler rules.
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import { parseJsonWithPositions, type JsonNode } from '../../../declarations/json.js';
import { pathKey, type Locator, type PathSeg, type Position } from '../../../declarations/source-file.js';
import type { CodexFileKind, CodexSource } from '../model.js';
import {
  checkHooksDocument,
  codexDiagnostic,
  isTable,
  pathText,
  rejectionMessage,
  type CheckedDocument,
} from '../rules/check.js';
import { codexEvent } from '../catalog.js';
import { TomlFloat } from '../rules/hash.js';
import { codexHookName, q } from '../rules/names.js';

export interface DocumentMeta {
  file: string;
  fileKind: CodexFileKind;
  origin: string;
  source: CodexSource;
}

/**
 * The plain value of a node, as serde_json sees it: a number written with a fraction or an
 * exponent stays a float (TomlFloat), so `"timeout": 10.0` is refused as Codex refuses it and an
 * mcp_tool `input` float hashes as `10.0` (codex.md §2.1, §2.6).
 */
export function codexJsonValue(node: JsonNode): unknown {
  switch (node.kind) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const e of node.entries) out[e.key] = codexJsonValue(e.value);
      return out;
    }
    case 'array':
      return node.items.map(codexJsonValue);
    default:
      return node.float === true ? new TomlFloat(node.value as number) : node.value;
  }
}

/** A locator over a parsed JSON tree: an object key's position, or a list item's. */
export function jsonLocator(root: JsonNode): Locator {
  const at = new Map<string, Position>();
  const walk = (node: JsonNode, path: PathSeg[]) => {
    if (node.kind === 'object') {
      for (const e of node.entries) {
        const p = [...path, e.key];
        at.set(pathKey(p), { line: e.line, column: e.column });
        walk(e.value, p);
      }
    } else if (node.kind === 'array') {
      node.items.forEach((item, i) => {
        const p = [...path, i];
        at.set(pathKey(p), { line: item.line, column: item.column });
        walk(item, p);
      });
    }
  };
  at.set(pathKey([]), { line: root.line, column: root.column });
  walk(root, []);
  return (path) => at.get(pathKey(path));
}

export type JsonHooksRead =
  { ok: true; checked: CheckedDocument; value: unknown } | { ok: false; diagnostic: Diagnostic };

/** Reads a hooks.json text. */
export function readHooksJsonText(text: string, meta: DocumentMeta): JsonHooksRead {
  const parsed = parseJsonWithPositions(text);
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    return {
      ok: false,
      diagnostic: codexDiagnostic(
        'error',
        'json_parse_error',
        `invalid JSON: ${message}`,
        meta.file,
        { line, column },
        {
          source: meta.source,
        },
      ),
    };
  }
  const root = parsed.value;
  return { ok: true, checked: checkHooksFileNode(root, [], jsonLocator(root), meta), value: codexJsonValue(root) };
}

/**
 * A hooks-file object (a hooks.json root, or an inline object of a plugin manifest) at `base`
 * in its document.
 */
export function checkHooksFileNode(
  node: JsonNode,
  base: PathSeg[],
  locate: Locator,
  meta: DocumentMeta,
): CheckedDocument {
  const early: Diagnostic[] = [];
  const rejectAt = (why: string, at: Position, hook?: string) =>
    early.push(
      codexDiagnostic('error', 'codex_file_rejected', rejectionMessage(false, why), meta.file, at, {
        source: meta.source,
        ...(hook !== undefined ? { hook } : {}),
      }),
    );
  if (node.kind !== 'object') {
    rejectAt(`${base.length === 0 ? 'the file' : pathText(base)} must be an object with a "hooks" table`, node);
    return { handlers: [], diagnostics: early, rejected: early[0]!, declaresHooks: false };
  }
  for (const e of node.entries) {
    if (e.key !== 'description' && e.key !== 'hooks')
      rejectAt(`unknown field ${q(e.key)}; only "description" and "hooks" are allowed`, e);
  }
  duplicateFields(node, meta.origin, rejectAt);
  const value = codexJsonValue(node) as Record<string, unknown>;
  if (value.description !== undefined && value.description !== null && typeof value.description !== 'string') {
    rejectAt(`${pathText([...base, 'description'])} must be a string`, locate([...base, 'description']) ?? node);
  }
  const checked = checkHooksDocument({
    hooks: isTable(value) ? value.hooks : undefined,
    base: [...base, 'hooks'],
    locate,
    file: meta.file,
    fileKind: meta.fileKind,
    origin: meta.origin,
    source: meta.source,
    loadFailure: false,
    ...(early[0] !== undefined ? { rejected: early[0] } : {}),
  });
  return { ...checked, diagnostics: [...early, ...checked.diagnostics] };
}

/**
 * serde rejects a field written twice in a struct: the root, a group, a handler (depth 0, 3, 5
 * below the root: root → hooks → event list → group → hooks list → handler). The `hooks` map of
 * events is a struct of named events too. An mcp_tool `input` is a free JSON value: not judged.
 */
function duplicateFields(
  root: JsonNode,
  origin: string,
  rejectAt: (why: string, at: Position, hook?: string) => void,
): void {
  const check = (obj: JsonNode, hook?: string) => {
    if (obj.kind !== 'object') return;
    const seen = new Set<string>();
    for (const e of obj.entries) {
      if (seen.has(e.key)) rejectAt(`duplicate field ${q(e.key)}`, e, hook);
      seen.add(e.key);
    }
  };
  check(root);
  if (root.kind !== 'object') return;
  const hooks = root.entries.filter((e) => e.key === 'hooks').at(-1)?.value;
  if (hooks?.kind !== 'object') return;
  check(hooks);
  for (const ev of hooks.entries) {
    if (ev.value.kind !== 'array') continue;
    const known = codexEvent(ev.key) !== undefined;
    ev.value.items.forEach((group, gi) => {
      check(group, known ? codexHookName(origin, ev.key, gi, 0) : undefined);
      if (group.kind !== 'object') return;
      const list = group.entries.filter((e) => e.key === 'hooks').at(-1)?.value;
      if (list?.kind !== 'array') return;
      list.items.forEach((h, hi) => check(h, known ? codexHookName(origin, ev.key, gi, hi) : undefined));
    });
  }
}
