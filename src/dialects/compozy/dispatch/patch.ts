// A compozy hook's answer (SPEC §3.1 step 2): its stdout strictly decoded as the event's patch
// type, and the patch applied to the payload as the catalog's `applied`/`applied_to` say.
//
// Decoding mirrors Go's encoding/json Decoder with DisallowUnknownFields, which is what the
// runtime uses, so error texts read like the runtime's:
//   - empty or white-space stdout: the empty patch `{}`;
//   - a syntax error in the first value: `invalid character 'x' looking for beginning of value`,
//     `unexpected EOF`, … (Go's scanner texts);
//   - a first value that is not an object: `json: cannot unmarshal array into Go value of type <Patch>`;
//   - an unknown key: `json: unknown field "<k>"`; a wrong type:
//     `json: cannot unmarshal string into Go struct field <Patch>.<path> of type <gotype>`;
//   - anything but white space after the first value: `hooks: patch must contain one JSON value`.
// Every one is prefixed `hooks: decode patch for hook "<n>": `. As in Go, object keys match field
// names exactly or else case-insensitively, a `null` field value counts as absent, and the first
// error in document order wins.
import { nestedTypeName, payloadType, type PatchType, type PayloadType } from '../payload-types.js';

export interface DecodedPatch {
  /** The object the hook wrote, as written (recorded as `patch_applied`). */
  raw: Record<string, unknown>;
  /** Present fields under their catalog names (null values dropped). */
  fields: Record<string, unknown>;
  /** Stdout was empty or white space. */
  empty: boolean;
}

export type PatchDecodeResult = { ok: true; patch: DecodedPatch } | { ok: false; error: string };

const ONE_VALUE_ERROR = 'hooks: patch must contain one JSON value';

/** Decodes a hook's stdout as the patch type `typeName` (whose definition is `type`). */
export function decodePatch(stdout: string, hookName: string, typeName: string, type: PatchType): PatchDecodeResult {
  const fail = (why: string): PatchDecodeResult => ({
    ok: false,
    error: `hooks: decode patch for hook ${JSON.stringify(hookName)}: ${why}`,
  });
  if (stdout.trim() === '') return { ok: true, patch: { raw: {}, fields: {}, empty: true } };

  const start = skipWhitespace(stdout, 0);
  const scanned = scanValue(stdout, start, 0);
  if ('error' in scanned) return fail(scanned.error);
  let value: unknown;
  try {
    value = JSON.parse(stdout.slice(start, scanned.end));
  } catch (e) {
    return fail((e as Error).message); // Unreachable when the scanner is right; never a crash.
  }
  if (!isPlainObject(value)) {
    return fail(`json: cannot unmarshal ${jsonKind(value)} into Go value of type ${typeName}`);
  }
  const fields: Record<string, unknown> = {};
  const typeError = checkStruct(value, type.fields, typeName, '', fields);
  if (typeError !== undefined) return fail(typeError);
  if (skipWhitespace(stdout, scanned.end) !== stdout.length) return fail(ONE_VALUE_ERROR);
  return { ok: true, patch: { raw: value, fields, empty: false } };
}

// ---------------------------------------------------------------------------------------------
// Type checking against the catalog's field types.

/**
 * Checks an object against a struct's fields; fills `out` with present fields under their
 * catalog names. Returns the first error in document order.
 */
function checkStruct(
  obj: Record<string, unknown>,
  fieldTypes: Record<string, string>,
  structName: string,
  pathPrefix: string,
  out?: Record<string, unknown>,
): string | undefined {
  const lowerIndex = foldIndex(fieldTypes);
  for (const [key, value] of Object.entries(obj)) {
    const field = Object.hasOwn(fieldTypes, key) ? key : lowerIndex.get(key.toLowerCase());
    if (field === undefined) return `json: unknown field ${JSON.stringify(key)}`;
    if (value === null) continue; // Go leaves the field at its zero value: absent.
    const error = checkValue(value, fieldTypes[field]!, structName, pathPrefix + field);
    if (error !== undefined) return error;
    if (out) out[field] = value;
  }
  return undefined;
}

const foldIndexCache = new WeakMap<Record<string, string>, Map<string, string>>();

function foldIndex(fieldTypes: Record<string, string>): Map<string, string> {
  let index = foldIndexCache.get(fieldTypes);
  if (!index) {
    index = new Map();
    for (const name of Object.keys(fieldTypes)) if (!index.has(name.toLowerCase())) index.set(name.toLowerCase(), name);
    foldIndexCache.set(fieldTypes, index);
  }
  return index;
}

function checkValue(value: unknown, type: string, structName: string, path: string): string | undefined {
  const mismatch = (goType: string): string =>
    `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${structName}.${path} of type ${goType}`;
  if (value === null) return undefined;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? undefined : mismatch('string');
    case 'boolean':
      return typeof value === 'boolean' ? undefined : mismatch('bool');
    case 'integer':
      if (typeof value !== 'number') return mismatch('int');
      return Number.isSafeInteger(value)
        ? undefined
        : `json: cannot unmarshal number ${String(value)} into Go struct field ${structName}.${path} of type int`;
    case 'number':
      return typeof value === 'number' ? undefined : mismatch('float64');
    case 'json':
      return undefined;
    case 'object':
      return isPlainObject(value) ? undefined : mismatch('map[string]interface {}');
    case 'string_map':
      if (!isPlainObject(value)) return mismatch('map[string]string');
      for (const item of Object.values(value)) {
        if (item !== null && typeof item !== 'string') return checkValue(item, 'string', structName, path);
      }
      return undefined;
  }
  const arrayOf = /^array<(.+)>$/.exec(type)?.[1];
  if (arrayOf !== undefined) {
    if (!Array.isArray(value)) return mismatch(`[]${goTypeName(arrayOf)}`);
    for (const item of value) {
      const error = checkValue(item, arrayOf, structName, path);
      if (error !== undefined) return error;
    }
    return undefined;
  }
  const nested = nestedTypeName(type);
  if (nested !== undefined) {
    if (!isPlainObject(value)) return mismatch(nested);
    const def: PayloadType | undefined = payloadType(nested);
    // A nested type missing from the catalog is accepted as a free-form object.
    return def ? checkStruct(value, def.fields, structName, `${path}.`) : undefined;
  }
  return undefined; // An unknown type string: accept, the catalog is the authority.
}

function goTypeName(type: string): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'integer':
      return 'int';
    case 'number':
      return 'float64';
    case 'object':
      return 'map[string]interface {}';
    case 'string_map':
      return 'map[string]string';
    case 'json':
      return 'json.RawMessage';
  }
  return nestedTypeName(type) ?? type;
}

function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value; // string, number, object
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// A JSON scanner that finds where the first value ends and words syntax errors as Go's
// encoding/json scanner does. JSON.parse then converts the slice it validated.

type ScanResult = { end: number } | { error: string };

function isJsonSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

function skipWhitespace(s: string, i: number): number {
  while (i < s.length && isJsonSpace(s[i])) i++;
  return i;
}

/** Go's quoteChar: the offending character in single quotes, escaped like strconv.Quote. */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const quoted = JSON.stringify(c).slice(1, -1);
  const code = c.codePointAt(0)!;
  if (code < 0x20 && !/^\\[bfnrt]$/.test(quoted)) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  if (code === 0x7f) return "'\\x7f'";
  return `'${quoted}'`;
}

function invalid(c: string, context: string): { error: string } {
  return { error: `invalid character ${quoteChar(c)} ${context}` };
}

const UNEXPECTED_EOF = { error: 'unexpected EOF' };

/** Bounds recursion; Go's limit is 10000, no sane patch comes near this one. */
const MAX_NESTING = 1000;

function scanValue(s: string, i: number, depth: number): ScanResult {
  if (i >= s.length) return UNEXPECTED_EOF;
  const c = s[i]!;
  if ((c === '{' || c === '[') && depth >= MAX_NESTING) return { error: 'exceeded max depth' };
  switch (c) {
    case '{':
      return scanObject(s, i + 1, depth + 1);
    case '[':
      return scanArray(s, i + 1, depth + 1);
    case '"':
      return scanString(s, i + 1);
    case 't':
      return scanLiteral(s, i, 'true');
    case 'f':
      return scanLiteral(s, i, 'false');
    case 'n':
      return scanLiteral(s, i, 'null');
  }
  if (c === '-' || (c >= '0' && c <= '9')) return scanNumber(s, i);
  return invalid(c, 'looking for beginning of value');
}

function scanObject(s: string, i: number, depth: number): ScanResult {
  i = skipWhitespace(s, i);
  if (s[i] === '}') return { end: i + 1 };
  for (;;) {
    if (i >= s.length) return UNEXPECTED_EOF;
    if (s[i] !== '"') return invalid(s[i]!, 'looking for beginning of object key string');
    const key = scanString(s, i + 1);
    if ('error' in key) return key;
    i = skipWhitespace(s, key.end);
    if (i >= s.length) return UNEXPECTED_EOF;
    if (s[i] !== ':') return invalid(s[i]!, 'after object key');
    const value = scanValue(s, skipWhitespace(s, i + 1), depth);
    if ('error' in value) return value;
    i = skipWhitespace(s, value.end);
    if (i >= s.length) return UNEXPECTED_EOF;
    if (s[i] === '}') return { end: i + 1 };
    if (s[i] !== ',') return invalid(s[i]!, 'after object key:value pair');
    i = skipWhitespace(s, i + 1);
  }
}

function scanArray(s: string, i: number, depth: number): ScanResult {
  i = skipWhitespace(s, i);
  if (s[i] === ']') return { end: i + 1 };
  for (;;) {
    const value = scanValue(s, i, depth);
    if ('error' in value) return value;
    i = skipWhitespace(s, value.end);
    if (i >= s.length) return UNEXPECTED_EOF;
    if (s[i] === ']') return { end: i + 1 };
    if (s[i] !== ',') return invalid(s[i]!, 'after array element');
    i = skipWhitespace(s, i + 1);
  }
}

/** `i` is just past the opening quote. */
function scanString(s: string, i: number): ScanResult {
  while (i < s.length) {
    const c = s[i]!;
    if (c === '"') return { end: i + 1 };
    if (c < ' ') return invalid(c, 'in string literal');
    if (c === '\\') {
      const e = s[i + 1];
      if (e === undefined) return UNEXPECTED_EOF;
      if (e === 'u') {
        for (let k = i + 2; k < i + 6; k++) {
          if (k >= s.length) return UNEXPECTED_EOF;
          if (!/[0-9a-fA-F]/.test(s[k]!)) return invalid(s[k]!, 'in \\u hexadecimal character escape');
        }
        i += 6;
        continue;
      }
      if (!'"\\/bfnrt'.includes(e)) return invalid(e, 'in string escape code');
      i += 2;
      continue;
    }
    i++;
  }
  return UNEXPECTED_EOF;
}

function scanLiteral(s: string, i: number, word: string): ScanResult {
  for (let k = 1; k < word.length; k++) {
    const c = s[i + k];
    if (c === undefined) return UNEXPECTED_EOF;
    if (c !== word[k]) return invalid(c, `in literal ${word} (expecting '${word[k]}')`);
  }
  return { end: i + word.length };
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function scanNumber(s: string, i: number): ScanResult {
  if (s[i] === '-') {
    i++;
    if (i >= s.length) return UNEXPECTED_EOF;
    if (!isDigit(s[i])) return invalid(s[i]!, 'in numeric literal');
  }
  if (s[i] === '0') i++;
  else while (isDigit(s[i])) i++;
  if (s[i] === '.') {
    i++;
    if (i >= s.length) return UNEXPECTED_EOF;
    if (!isDigit(s[i])) return invalid(s[i]!, 'after decimal point in numeric literal');
    while (isDigit(s[i])) i++;
  }
  if (s[i] === 'e' || s[i] === 'E') {
    i++;
    if (s[i] === '+' || s[i] === '-') i++;
    if (i >= s.length) return UNEXPECTED_EOF;
    if (!isDigit(s[i])) return invalid(s[i]!, 'in exponent of numeric literal');
    while (isDigit(s[i])) i++;
  }
  return { end: i };
}

// ---------------------------------------------------------------------------------------------
// Applying a decoded patch.

/**
 * The payload after the patch: each applied field that is present replaces the payload field of
 * the same name, or lands where `applied_to` says. The input payload is never mutated; untouched
 * fields are shared with it. An observation-only patch returns the payload unchanged.
 */
export function applyPatch(
  payload: Record<string, unknown>,
  fields: Record<string, unknown>,
  type: PatchType,
): Record<string, unknown> {
  if (type.observation_only) return payload;
  let next = payload;
  for (const field of type.applied) {
    if (!Object.hasOwn(fields, field)) continue;
    const rule = parseAppliedTo(field, type.applied_to?.[field]);
    next = applyRule(next, rule, fields[field], fields);
  }
  return next;
}

interface AppliedRule {
  /** Dotted path into the payload. */
  target: string;
  /** The parenthesised note of `applied_to`, '' for a plain replace. */
  how: string;
}

/** `applied_to` entries read `<target> (<how>)`, e.g. `criteria.priority_min (only raised)`. */
function parseAppliedTo(field: string, spec: string | undefined): AppliedRule {
  if (spec === undefined) return { target: field, how: '' };
  const m = /^([A-Za-z0-9_.]+)(?:\s*\((.*)\))?$/.exec(spec.trim());
  return m ? { target: m[1]!, how: (m[2] ?? '').trim() } : { target: field, how: '' };
}

function applyRule(
  payload: Record<string, unknown>,
  rule: AppliedRule,
  value: unknown,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const { target, how } = rule;
  const setTo = /^set to "(.*)"$/.exec(how);
  if (setTo) return value === true ? setPath(payload, target, setTo[1]) : payload;
  switch (how) {
    case 'set true':
      return value === true ? setPath(payload, target, true) : payload;
    case 'only when deny is true':
      return fields.deny === true ? setPath(payload, target, value) : payload;
    case 'only raised': {
      const current = getPath(payload, target);
      const floor = typeof current === 'number' ? current : 0;
      return typeof value === 'number' && value > floor ? setPath(payload, target, value) : payload;
    }
    case 'union, trimmed, de-duplicated': {
      const current = getPath(payload, target);
      const base = Array.isArray(current) ? current : [];
      return setPath(payload, target, uniqueTrimmed([...base, ...(value as unknown[])]));
    }
    case 'trimmed':
    case 'trimmed, de-duplicated':
      return setPath(payload, target, trimValue(value));
    default: // '' and 'copied as is'
      return setPath(payload, target, structuredClone(value));
  }
}

/** Trims strings, trims and de-duplicates string lists, one level into objects (PermissionSet). */
function trimValue(value: unknown): unknown {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return uniqueTrimmed(value);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = Array.isArray(v) ? uniqueTrimmed(v) : structuredClone(v);
    return out;
  }
  return value;
}

/** Trimmed, blanks dropped, first occurrence kept (the runtime's uniqueTrimmedStrings). */
export function uniqueTrimmed(values: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const v of values) {
    if (typeof v !== 'string') continue;
    const t = v.trim();
    if (t !== '') seen.add(t);
  }
  return [...seen];
}

function getPath(obj: Record<string, unknown>, path: string): unknown {
  let current: unknown = obj;
  for (const key of path.split('.')) {
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

/** A copy of `obj` with `path` set, copying each object along the path (creating missing ones). */
function setPath(obj: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  const copy = { ...obj };
  if (rest.length === 0) {
    copy[head!] = value;
    return copy;
  }
  const child = isPlainObject(obj[head!]) ? (obj[head!] as Record<string, unknown>) : {};
  copy[head!] = setPath(child, rest.join('.'), value);
  return copy;
}
