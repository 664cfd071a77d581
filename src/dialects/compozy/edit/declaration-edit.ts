// The five changes of SPEC §6.1 as pure functions: (config.toml text, request) → new text, or a
// typed refusal. No I/O here: apply.ts reads, locks, validates and writes.
//
// Every edit is checked against its meaning before it is returned: the new text is parsed and
// must equal the old document with exactly the intended change (empty tables aside). A text edit
// that would do anything else is refused (`hook_edit_failed`) instead of written.
import { parse as parseToml } from 'smol-toml';
import { rawHookName } from '../rules/declaration.js';
import { isSecretLikeName, looksLikeSecretValue } from '../../../declarations/secrets.js';
import {
  appendDeclarationBlock,
  deleteDeclarationBlock,
  EditError,
  formatDeclarationBlock,
  scanConfigLayout,
  setDeclarationValue,
  unsetDeclarationValue,
} from '../../../edit/toml-edit.js';
import { isTomlTable, type TomlTable, type TomlValue } from '../../../edit/toml-format.js';

export type { EditAction } from '../../types.js';

/**
 * A change to one field of a declaration, by the path a user names it with: ['timeout'],
 * ['env', 'FOO'], ['matcher', 'tool_id'], ['matcher', 'autonomy', 'run_id'], ['command'].
 * `value` undefined removes the key. Where the key is written (top level or under `executor`,
 * autonomy nested or flat) is decided from the declaration being changed.
 */
export interface FieldChange {
  path: string[];
  value?: TomlValue;
}

export type EditRequest =
  | { action: 'create'; name: string; changes: FieldChange[] }
  | { action: 'update'; name: string; changes: FieldChange[] }
  | { action: 'delete' | 'enable' | 'disable'; name: string };

export type RefusalCode =
  | 'hook_already_exists'
  | 'hook_not_found'
  | 'hook_secret_input_forbidden'
  | 'hook_config_invalid'
  | 'hook_config_layout_unsupported'
  | 'hook_edit_failed';

export type EditOutcome =
  { ok: true; text: string; changed: boolean } | { ok: false; code: RefusalCode; message: string };

const q = (s: string): string => JSON.stringify(s);

/** Plain words after the SPEC's "target config overlay": the file that was looked in. */
const NOT_IN_FILE = 'the config.toml --scope names has no declaration of that name';

const SECRET_INPUT_MESSAGE = 'hook executor env contains a forbidden secret-bearing input';

/** Fields that belong to the executor: top level, or under `[executor]` when it holds them. */
const EXECUTOR_FIELDS = new Set(['command', 'args', 'env', 'secret_env']);

type Table = Record<string, unknown>;

/** Applies one request to a config.toml text. */
export function editConfigText(text: string, request: EditRequest): EditOutcome {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  const doc = readDocument(body);
  if (!doc.ok) return doc;
  const name = request.name.trim();
  const indices = doc.declarations.flatMap((d, i) => (rawHookName(d) === name ? [i] : []));

  const secretKey =
    request.action === 'create' || request.action === 'update' ? secretInputKey(request.changes) : undefined;
  if (secretKey !== undefined) {
    // The SPEC's text, then which key, and where a secret belongs instead.
    return refuse(
      'hook_secret_input_forbidden',
      `${SECRET_INPUT_MESSAGE}: env ${q(secretKey)} (use --secret-env ${secretKey}=env:VAR)`,
    );
  }
  if (request.action === 'create') {
    if (indices.length > 0) return refuse('hook_already_exists', `hook ${q(name)} already exists`);
  } else if (indices.length === 0) {
    return refuse('hook_not_found', `hook ${q(name)} not found in target config overlay (${NOT_IN_FILE})`);
  }

  let planned: Planned;
  try {
    planned = plan(body, doc, request, name, indices);
  } catch (err) {
    if (err instanceof EditError)
      return refuse('hook_edit_failed', `cannot change hook ${q(name)}: ${err.message}; nothing was written`);
    throw err;
  }
  const check = matchesIntent(planned.text, planned.expected);
  if (check !== undefined)
    return refuse('hook_edit_failed', `internal error: editing hook ${q(name)} would ${check}; nothing was written`);
  return { ok: true, text: bom + planned.text, changed: planned.text !== body };
}

/** The trimmed names of the declarations a config.toml text holds, in file order. */
export function declarationNamesOf(text: string): string[] {
  const doc = readDocument(text.replace(/^\uFEFF/, ''));
  if (!doc.ok) return [];
  return doc.declarations.map((d) => rawHookName(d)).filter((n): n is string => n !== undefined);
}

/** Whether an env change sets a secret-looking name or value (SPEC §6.1). */
export function hasSecretInput(changes: readonly FieldChange[]): boolean {
  return secretInputKey(changes) !== undefined;
}

/** The first env key whose name or value looks like a secret, if any. */
function secretInputKey(changes: readonly FieldChange[]): string | undefined {
  const secret = (k: string, v: unknown) => isSecretLikeName(k) || (typeof v === 'string' && looksLikeSecretValue(v));
  for (const c of changes) {
    if (c.path[0] !== 'env' || c.value === undefined) continue;
    if (c.path.length === 2 && secret(c.path[1]!, c.value)) return c.path[1]!;
    // A whole env table.
    if (c.path.length === 1 && isTomlTable(c.value)) {
      const hit = Object.entries(c.value).find(([k, v]) => secret(k, v));
      if (hit) return hit[0];
    }
  }
  return undefined;
}

// ---- reading ----

type Document = { ok: true; data: Table; declarations: unknown[] } | { ok: false; code: RefusalCode; message: string };

function readDocument(text: string): Document {
  let data: Table;
  try {
    data = parseToml(text, { integersAsBigInt: 'asNeeded' }) as Table;
  } catch {
    return refuse('hook_config_invalid', 'the target config is not valid TOML');
  }
  const hooks = data.hooks;
  const list = isTable(hooks) ? hooks.declarations : undefined;
  if (hooks !== undefined && !isTable(hooks)) return refuse('hook_config_invalid', 'hooks must be a table');
  if (list !== undefined && !Array.isArray(list))
    return refuse('hook_config_invalid', 'hooks.declarations must be an array of tables');
  const declarations = (list as unknown[] | undefined) ?? [];
  const layout = scanConfigLayout(text);
  if (layout.unscanned || layout.blocks.length !== declarations.length) {
    return refuse(
      'hook_config_layout_unsupported',
      'the target config writes its hook declarations in a layout hookctl does not edit: write each one as a [[hooks.declarations]] table',
    );
  }
  return { ok: true, data, declarations };
}

// ---- planning ----

interface Planned {
  text: string;
  /** The whole document as it must parse after the edit. */
  expected: unknown;
}

function plan(
  text: string,
  doc: Extract<Document, { ok: true }>,
  request: EditRequest,
  name: string,
  indices: number[],
): Planned {
  const expected = toPlain(doc.data) as Table;
  const declarations = (): unknown[] => {
    const hooks = (expected.hooks ??= {}) as Table;
    return (hooks.declarations ??= []) as unknown[];
  };
  const last = indices.at(-1)!;

  switch (request.action) {
    case 'create': {
      const declaration: TomlTable = { name };
      for (const change of request.changes)
        if (change.value !== undefined) setIn(declaration, change.path, change.value);
      const block = formatDeclarationBlock(declaration, scanConfigLayout(text).eol);
      declarations().push(toPlain(declaration));
      return { text: appendDeclarationBlock(text, block), expected };
    }
    case 'update': {
      const original = doc.declarations[last] as Table;
      const target = declarations()[last] as Table;
      let next = text;
      for (const change of request.changes) {
        const path = writtenPath(original, change.path);
        if (change.value === undefined) {
          next = unsetDeclarationValue(next, last, path);
          unsetIn(target, path);
        } else {
          next = setDeclarationValue(next, last, path, change.value);
          setIn(target, path, toPlain(change.value) as TomlValue);
        }
      }
      return { text: next, expected };
    }
    case 'delete': {
      let next = text;
      // From the last, so the earlier indices stay valid; a repeated name goes entirely.
      for (const i of [...indices].reverse()) {
        next = deleteDeclarationBlock(next, i);
        declarations().splice(i, 1);
      }
      return { text: next, expected };
    }
    case 'enable':
    case 'disable': {
      // A repeated name: the last declaration is the one in effect (SPEC §2.1).
      const enabled = (doc.declarations[last] as Table).enabled;
      const target = declarations()[last] as Table;
      if (request.action === 'disable' && enabled !== false) {
        target.enabled = false;
        return { text: setDeclarationValue(text, last, ['enabled'], false), expected };
      }
      if (request.action === 'enable' && enabled === false) {
        // enabled defaults to true: removing the key gives back the file as it was before disable.
        delete target.enabled;
        return { text: unsetDeclarationValue(text, last, ['enabled']), expected };
      }
      return { text, expected };
    }
  }
}

/** Where a field named by the user is written in this declaration. */
function writtenPath(declaration: Table, path: readonly string[]): string[] {
  const executor = declaration.executor;
  if (
    EXECUTOR_FIELDS.has(path[0]!) &&
    isTable(executor) &&
    [...EXECUTOR_FIELDS].some((k) => executor[k] !== undefined)
  ) {
    return ['executor', ...path];
  }
  // An autonomy field already written flat under matcher (as earlier releases did) stays there.
  const matcher = declaration.matcher;
  if (
    path.length === 3 &&
    path[0] === 'matcher' &&
    path[1] === 'autonomy' &&
    isTable(matcher) &&
    matcher[path[2]!] !== undefined
  ) {
    return ['matcher', path[2]!];
  }
  return [...path];
}

// ---- checking the result against the intent ----

/** undefined when `text` parses to `expected` (empty tables inside declarations aside). */
function matchesIntent(text: string, expected: unknown): string | undefined {
  let actual: unknown;
  try {
    actual = toPlain(parseToml(text, { integersAsBigInt: 'asNeeded' }));
  } catch (err) {
    return `produce invalid TOML (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
  }
  const a = canonical(pruneDeclarations(actual));
  const e = canonical(pruneDeclarations(expected));
  return a === e ? undefined : 'change more than the requested fields';
}

/** Empty tables inside declarations, an emptied declarations list and an empty [hooks] count as absent. */
function pruneDeclarations(doc: unknown): unknown {
  const hooks = isTable(doc) ? doc.hooks : undefined;
  if (!isTable(doc) || !isTable(hooks)) return doc;
  if (Array.isArray(hooks.declarations)) {
    const declarations = hooks.declarations.map(pruneEmptyTables);
    // Deleting the last declaration leaves no [[hooks.declarations]] in the text.
    if (declarations.length === 0) delete hooks.declarations;
    else hooks.declarations = declarations;
  }
  if (Object.keys(hooks).length === 0) delete doc.hooks;
  return doc;
}

function pruneEmptyTables(value: unknown): unknown {
  if (!isTable(value) || isTagged(value)) return value;
  const out: Table = {};
  for (const [k, v] of Object.entries(value)) {
    const pruned = pruneEmptyTables(v);
    if (isTable(pruned) && !isTagged(pruned) && Object.keys(pruned).length === 0) continue;
    out[k] = pruned;
  }
  return out;
}

/** JSON with sorted keys. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!isTable(v)) return v;
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, v[k]]),
    );
  });
}

/** Parsed TOML as plain JSON data: dates and big integers become tagged objects. */
function toPlain(value: unknown): unknown {
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (value instanceof Date) return { $date: value.toISOString() };
  if (Array.isArray(value)) return value.map(toPlain);
  if (isTable(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)]));
  return value;
}

const isTagged = (v: Table): boolean => ('$bigint' in v || '$date' in v) && Object.keys(v).length === 1;

// ---- plain-data helpers ----

function setIn(table: Table, path: readonly string[], value: unknown): void {
  let t = table;
  for (const key of path.slice(0, -1)) {
    if (!isTable(t[key])) t[key] = {};
    t = t[key] as Table;
  }
  t[path.at(-1)!] = value;
}

function unsetIn(table: Table, path: readonly string[]): void {
  let t: unknown = table;
  for (const key of path.slice(0, -1)) {
    t = isTable(t) ? t[key] : undefined;
    if (!isTable(t)) return;
  }
  delete (t as Table)[path.at(-1)!];
}

function isTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function refuse(code: RefusalCode, message: string): { ok: false; code: RefusalCode; message: string } {
  return { ok: false, code, message };
}
