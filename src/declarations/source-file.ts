// Reading one declaration file as text, and the position vocabulary every parser shares.
// A file that is missing is simply empty (SPEC §1); a file that cannot be read, is binary or is
// not UTF-8 becomes one diagnostic, never a throw, and the other files are still read.
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import type { DiagnosticCode } from './codes.js';
import type { Diagnostic } from './diagnostics.js';
import type { Source } from './model.js';

/** One step into parsed data: a table key or a list index. */
export type PathSeg = string | number;

/** 1-based line and column. */
export interface Position {
  line: number;
  column?: number;
}

/** Where a key (or list item) of a parsed file is written; undefined when unknown. */
export type Locator = (path: readonly PathSeg[]) => Position | undefined;

export const noLocator: Locator = () => undefined;

/**
 * A canonical string for a path: `.hooks.declarations[2].matcher`. Keys that are not bare words
 * are quoted so that `["a.b"]` and `.a.b` never collide.
 */
export function pathKey(path: readonly PathSeg[]): string {
  let out = '';
  for (const seg of path) out = appendPathKey(out, seg);
  return out;
}

/** `pathKey([...path, seg])` from `pathKey(path)`, without rebuilding the whole key. */
function appendPathKey(key: string, seg: PathSeg): string {
  if (typeof seg === 'number') return `${key}[${seg}]`;
  return isBareKey(seg) ? `${key}.${seg}` : `${key}[${JSON.stringify(seg)}]`;
}

function isBareKey(seg: string): boolean {
  if (seg === '') return false;
  for (let i = 0; i < seg.length; i++) {
    const c = seg.charCodeAt(i);
    const ok =
      (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;
    if (!ok) return false;
  }
  return true;
}

/** Builds a diagnostic; `column` and the optional fields are left out when unknown. */
export function makeDiagnostic(
  severity: Diagnostic['severity'],
  code: DiagnosticCode,
  message: string,
  file: string,
  at: Position,
  extra: { source?: Source; hook?: string } = {},
): Diagnostic {
  const d: Diagnostic = { severity, code, message, file, line: at.line };
  if (at.column !== undefined) d.column = at.column;
  if (extra.source !== undefined) d.source = extra.source;
  if (extra.hook !== undefined) d.hook = extra.hook;
  return d;
}

export type SourceText =
  /** `bom`: the file began with a UTF-8 byte-order mark, dropped from `text` (CompozyOS refuses it in front matter files). */
  { kind: 'text'; text: string; bom?: true } | { kind: 'missing' } | { kind: 'bad'; diagnostic: Diagnostic };

/**
 * Reads a file as UTF-8 text (a leading BOM dropped, and told). Synchronous inside (the read
 * path's file calls are, for start-up); async in shape for its callers.
 */
export async function readSourceFile(file: string, source?: Source, opts: ReadOptions = {}): Promise<SourceText> {
  return decodeFileBytes(file, source, opts);
}

export interface ReadOptions {
  /**
   * The file is JSON: brackets inside its strings are not nesting (a `statusLine.command` holding
   * 300 `[` is a valid settings file, issue 24), so the guard skips them.
   */
  json?: boolean;
}

/**
 * The same, synchronously: for reading thousands of small files in a row (SKILL.md), where
 * one blocking read (~20 µs) beats an async one through the 4-thread pool (~100 µs) many times.
 */
export function readSourceFileSync(file: string, source?: Source): SourceText {
  let text: string;
  try {
    // One call: Node opens, reads and decodes the file in C++ (no Buffer, no JS decoder), which
    // measured faster than open/read/close into a reused buffer plus a TextDecoder.
    text = readFileSync(file, UTF8);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG') return decodeFileBytes(file, source);
    return readFailure(err, file, source);
  }
  // That decoding is not strict: bad bytes became U+FFFD. A NUL, or a U+FFFD (bad bytes, or a
  // real one), sends the file down the byte path, which finds the exact place (and accepts a
  // real U+FFFD). Both are rare in a declaration file.
  if (text.includes('\0') || text.includes('\uFFFD')) return decodeFileBytes(file, source);
  // As the strict decoder does, a leading BOM is dropped.
  if (text.charCodeAt(0) === 0xfeff) return withBom(checkNesting(text.slice(1), file, source));
  return checkNesting(text, file, source);
}

/** One options object for every read: Node copies a bare 'utf8' into a fresh one per call. */
const UTF8 = { encoding: 'utf8', flag: 'r' } as const;

function decodeFileBytes(file: string, source?: Source, opts: ReadOptions = {}): SourceText {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    return readFailure(err, file, source);
  }
  return decodeSourceBytes(bytes, file, source, opts);
}

function readFailure(err: unknown, file: string, source?: Source): SourceText {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
  const why = code === 'EISDIR' ? 'it is a folder' : ((err as Error).message ?? String(err));
  return {
    kind: 'bad',
    diagnostic: makeDiagnostic('error', 'file_unreadable', `cannot read file: ${why}`, file, { line: 1 }, { source }),
  };
}

// Checked with buffer.isUtf8 and decoded by Buffer, not a fatal TextDecoder: the decoder made at
// load and its first decode cost ~0.2 ms of every start of the read commands, and both accept
// exactly the well-formed UTF-8 of the Encoding Standard.

/** Bytes to text, refusing binary content (NUL bytes) and invalid UTF-8. */
export function decodeSourceBytes(
  bytes: Uint8Array,
  file: string,
  source?: Source,
  opts: ReadOptions = {},
): SourceText {
  // V8's own indexOf, not Buffer's: each Node function a start calls is compiled on every start
  // (only ours come from the compile cache; docs/PERFORMANCE.md).
  const nul = Uint8Array.prototype.indexOf.call(bytes, 0);
  if (nul !== -1) {
    const at = positionOfByte(bytes, nul);
    return {
      kind: 'bad',
      diagnostic: makeDiagnostic('error', 'binary_file', 'file is binary (it contains NUL bytes)', file, at, {
        source,
      }),
    };
  }
  if (!isUtf8(bytes)) {
    const at = positionOfByte(bytes, firstInvalidUtf8Byte(bytes));
    return {
      kind: 'bad',
      diagnostic: makeDiagnostic('error', 'invalid_utf8', 'file is not valid UTF-8 text', file, at, { source }),
    };
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  // Without the BOM, as a TextDecoder would give it. UTF-8 by leaving the encoding out (its
  // lookup is one more of Node's functions compiled on every start).
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString(undefined, bom ? 3 : 0);
  const read = checkNesting(text, file, source, opts.json === true ? jsonTooDeepAt : tooDeepAt);
  return bom ? withBom(read) : read;
}

function withBom(read: SourceText): SourceText {
  return read.kind === 'text' ? { ...read, bom: true } : read;
}

/** The text, or a diagnostic when it nests too deep for the parsers. */
function checkNesting(
  text: string,
  file: string,
  source?: Source,
  deepAt: (text: string) => number | undefined = tooDeepAt,
): SourceText {
  const deep = deepAt(text);
  if (deep !== undefined) {
    return {
      kind: 'bad',
      diagnostic: makeDiagnostic(
        'error',
        'nesting_too_deep',
        `nesting deeper than ${MAX_NESTING} levels: the file is not read`,
        file,
        positionOfOffset(text, deep),
        { source },
      ),
    };
  }
  return { kind: 'text', text };
}

/** No declaration format nests anywhere near this deep; parsers recurse, so refuse before them. */
export const MAX_NESTING = 256;

/** Offset where `[`/`{` nesting first passes MAX_NESTING (strings not excluded: a cheap guard). */
export function tooDeepAt(text: string): number | undefined {
  // Nesting past the limit takes more openers than the limit: most files have a handful, and
  // counting them with native searches is cheaper than walking every character here.
  let openers = 0;
  for (let i = text.indexOf('['); i !== -1 && openers <= MAX_NESTING; i = text.indexOf('[', i + 1)) openers++;
  for (let i = text.indexOf('{'); i !== -1 && openers <= MAX_NESTING; i = text.indexOf('{', i + 1)) openers++;
  if (openers <= MAX_NESTING) return undefined;
  // Many openers (a config of a few hundred `[[hooks.declarations]]`): walk the brackets alone,
  // which a native replace picks out, and the whole text only to place a real offender.
  if (maxDepth(text.replace(/[^[\]{}]+/g, '')) <= MAX_NESTING) return undefined;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_NESTING) return i;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return undefined;
}

/**
 * tooDeepAt for JSON: brackets inside strings are skipped. Walked only when the cheap count says
 * the brackets alone could pass the limit.
 */
export function jsonTooDeepAt(text: string): number | undefined {
  if (tooDeepAt(text) === undefined) return undefined;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, past escapes (an unclosed one runs to the end: the parser reports it).
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_NESTING) return i;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return undefined;
}

/** The deepest `[`/`{` nesting of a text, counted as tooDeepAt counts it. */
function maxDepth(brackets: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < brackets.length; i++) {
    const c = brackets.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
    } else if (depth > 0) depth--;
  }
  return max;
}

/** 1-based line and column (in bytes) of a byte offset. */
function positionOfByte(bytes: Uint8Array, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Offset of the first byte that breaks UTF-8 (only called once decoding has failed). */
function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

/** 1-based line and column of a character offset in text. */
export function positionOfOffset(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}
