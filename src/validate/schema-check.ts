// Structural checks of a parsed declaration file against the shipped JSON Schemas (schemas/),
// through validators precompiled by scripts/build-validators.mjs. This file only turns ajv
// errors into Diagnostics; the declaration rules (SPEC §2.1–2.4, §4) live with the loaders and
// normalisers, and `hooks validate` merges both, preferring a rule diagnostic on the same line.
import type { Diagnostic, Severity } from '../declarations/diagnostics.js';
import type { Source } from '../declarations/model.js';
import { validators, type SchemaError, type SchemaKind } from './validators.generated.js';

export type { SchemaError, SchemaKind };

/** A path into the parsed document: object keys and array indexes. */
export type DocumentPath = (string | number)[];

/**
 * Where the key or item at `path` is written, when the parser knows: a 1-based line, or a
 * position with a 1-based line and column (the loaders' Locator fits as is).
 */
export type Locate = (path: readonly (string | number)[]) => number | { line: number; column?: number } | undefined;

/**
 * What a dialect says about the documents of one of its schemas, so that this file reads every
 * dialect's schema errors without knowing their formats (docs/DESIGN.md, "Dialects"). A kind with
 * no layout (`hooktest`) gets the defaults.
 */
export interface SchemaLayout {
  /** The declaration source a file of this kind is (on each diagnostic). */
  readonly source?: Source;
  /** What the path `[]` is called in messages (default `document`; `front matter`). */
  readonly root?: string;
  /** A JSON pointer where an unknown key is an unknown event (cosh: `/hooks`). */
  readonly eventMap?: string;
  /** An unknown key warns rather than errs (cosh), except at `eventMap`. */
  readonly unknownKeysWarn?: boolean;
  /**
   * The name of the hook `path` is inside, as `hooks list` shows it. `nameAt(p)` is the trimmed
   * `name` of the object at p; `valueAt(p)` the value at p.
   */
  hookNameAt?(
    path: DocumentPath,
    nameAt: (p: DocumentPath) => string | undefined,
    valueAt: (p: DocumentPath) => unknown,
  ): string | undefined;
}

const NO_LAYOUT: SchemaLayout = {};

/** The schemas' patterns, said in words. Keep in step with scripts/gen-schemas.mjs. */
const PATTERN_MEANING: Readonly<Record<string, string>> = {
  '^(0|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$':
    'must be a non-negative Go duration such as "250ms", "5s" or "1m30s"',
  '^[A-Za-z_][A-Za-z0-9_]*$': 'must be an environment variable name (letters, digits and _, not starting with a digit)',
  '^(env:[A-Za-z_][A-Za-z0-9_]*|vault:hooks/.+)$': 'must be a secret reference "env:NAME" or "vault:hooks/..."',
  '^[a-z0-9]([a-z0-9._-]{0,62}[a-z0-9])?$':
    'must be lowercase letters and digits, with ".", "_" or "-" only inside, at most 64 characters',
};

/** Enums longer than this are not listed in a message (the compozy event enum has 104 values). */
const MAX_LISTED_VALUES = 10;

/**
 * Every schema problem of one parsed document (allErrors), one Diagnostic each, with code
 * `schema_<keyword>` and the line `locate` gives for the offending key (or its nearest ancestor).
 */
export function schemaDiagnostics(
  kind: SchemaKind,
  document: unknown,
  locate: Locate,
  file: string,
  layout: SchemaLayout = NO_LAYOUT,
): Diagnostic[] {
  const validate = validators[kind];
  if (validate(document)) return [];
  return relevantErrors(validate.errors ?? []).map((error) => toDiagnostic(layout, error, document, locate, file));
}

/** Every schema problem is an error, but an unknown key where the layout says it warns. */
export function schemaSeverity(layout: SchemaLayout, error: Pick<SchemaError, 'keyword' | 'instancePath'>): Severity {
  if (layout.unknownKeysWarn && error.keyword === 'additionalProperties' && error.instancePath !== layout.eventMap)
    return 'warning';
  return 'error';
}

/**
 * Drops errors that repeat another: the summary `propertyNames` error (its inner error names the
 * key), and any other error at a location that already has a type error (an `enum` on a number).
 */
function relevantErrors(errors: readonly SchemaError[]): SchemaError[] {
  const typeErrorAt = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  return errors.filter((e) => {
    if (e.keyword === 'propertyNames') return false;
    if (e.propertyName !== undefined) return true;
    return e.keyword === 'type' || !typeErrorAt.has(e.instancePath);
  });
}

function toDiagnostic(
  layout: SchemaLayout,
  error: SchemaError,
  document: unknown,
  locate: Locate,
  file: string,
): Diagnostic {
  const at = pointerToPath(error.instancePath, document);
  const params = error.params;
  let target = at;
  let text: string;
  let code = `schema_${snakeCase(error.keyword)}`;
  if (error.propertyName !== undefined) {
    target = [...at, error.propertyName];
    code = 'schema_property_names';
    text = `${pathText(layout, at)}: invalid key ${JSON.stringify(error.propertyName)}: ${describe(error, undefined)}`;
  } else if (error.keyword === 'additionalProperties') {
    const key = String(params.additionalProperty);
    target = [...at, key];
    const what = error.instancePath === layout.eventMap ? 'event' : 'key';
    text = `${pathText(layout, at)}: unknown ${what} ${JSON.stringify(key)}`;
  } else if (error.keyword === 'required') {
    // The missing key has no line: point at the object that lacks it.
    text = `${pathText(layout, at)}: missing required key ${JSON.stringify(String(params.missingProperty))}`;
  } else {
    text = `${pathText(layout, at)}: ${describe(error, valueAt(document, at))}`;
  }
  const position = nearestPosition(locate, target);
  const diagnostic: Diagnostic = {
    severity: schemaSeverity(layout, error),
    code,
    message: text,
    file,
    line: position.line,
  };
  if (position.column !== undefined) diagnostic.column = position.column;
  if (layout.source !== undefined) diagnostic.source = layout.source;
  const hook = hookNameAt(layout, document, at);
  if (hook !== undefined) diagnostic.hook = hook;
  return diagnostic;
}

/** The message after the path, for keywords that describe a value. `value` undefined: not shown. */
function describe(error: SchemaError, value: unknown): string {
  const params = error.params;
  const got = value === undefined ? '' : `, got ${show(value)}`;
  switch (error.keyword) {
    case 'type':
      return `must be ${String(params.type)}, got ${typeName(value)}`;
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]) ?? [];
      if (allowed.length <= MAX_LISTED_VALUES) {
        return `must be equal to one of the allowed values (${allowed.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')})`;
      }
      return `must be equal to one of the ${allowed.length} allowed values${got}`;
    }
    case 'pattern': {
      const pattern = String(params.pattern);
      return `${PATTERN_MEANING[pattern] ?? `must match pattern ${JSON.stringify(pattern)}`}${got}`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(params.comparison)} ${String(params.limit)}${got}`;
    default:
      return `${error.message ?? `fails ${error.keyword}`}${got}`;
  }
}

/** A JSON pointer (ajv's instancePath) as keys and indexes, reading the document for which is which. */
export function pointerToPath(pointer: string, document: unknown): DocumentPath {
  if (pointer === '') return [];
  const path: DocumentPath = [];
  let node: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(key)) {
      const index = Number(key);
      path.push(index);
      node = node[index];
    } else {
      path.push(key);
      node = isRecord(node) ? node[key] : undefined;
    }
  }
  return path;
}

/** `hooks.declarations[0].matcher.tool_id`; keys that are not plain names are quoted: `env["A-B"]`. */
export function pathText(layout: SchemaLayout, path: DocumentPath): string {
  if (path.length === 0) return layout.root ?? 'document';
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** Where `path` is written, else its nearest ancestor the parser located, else line 1. */
function nearestPosition(locate: Locate, path: DocumentPath): { line: number; column?: number } {
  for (let n = path.length; n >= 0; n--) {
    const found = locate(path.slice(0, n));
    if (typeof found === 'number') return { line: found };
    if (found !== undefined) return found.column === undefined ? { line: found.line } : found;
  }
  return { line: 1 };
}

/** The name of the hook the error is inside, as the layout finds it. */
function hookNameAt(layout: SchemaLayout, document: unknown, path: DocumentPath): string | undefined {
  const nameAt = (hookPath: DocumentPath): string | undefined => {
    const name = valueAt(document, [...hookPath, 'name']);
    return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
  };
  return layout.hookNameAt?.(path, nameAt, (p) => valueAt(document, p));
}

function valueAt(document: unknown, path: DocumentPath): unknown {
  let node = document;
  for (const segment of path) {
    if (typeof segment === 'number') node = Array.isArray(node) ? node[segment] : undefined;
    else node = isRecord(node) && Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A value for a one-line message: JSON, cut at 60 characters. */
function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function snakeCase(keyword: string): string {
  return keyword.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
