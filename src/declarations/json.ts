// A strict JSON parser (RFC 8259, as cosh-core's serde_json reads cosh-extension.json) that keeps
// where every value and object key starts, so diagnostics can point at the hook object or the
// offending key. JSON.parse gives no positions. Linear in the input; a syntax error is returned
// as data with its line and column, never thrown.

export interface JsonPosition {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
}

export type JsonNode = JsonObject | JsonArray | JsonScalar;

export interface JsonObject extends JsonPosition {
  kind: 'object';
  entries: JsonEntry[];
}

export interface JsonEntry extends JsonPosition {
  key: string;
  value: JsonNode;
}

export interface JsonArray extends JsonPosition {
  kind: 'array';
  items: JsonNode[];
}

export interface JsonScalar extends JsonPosition {
  kind: 'string' | 'number' | 'boolean' | 'null';
  value: string | number | boolean | null;
  /** A number written with a fraction or an exponent (`10.0`, `1e3`): serde reads it as a float. */
  float?: true;
}

export interface JsonSyntaxError extends JsonPosition {
  message: string;
}

export type JsonParseResult = { ok: true; value: JsonNode } | { ok: false; error: JsonSyntaxError };

/** Nesting beyond this is refused as data rather than risking the call stack. */
const MAX_DEPTH = 512;

class SyntaxFailure {
  constructor(
    readonly message: string,
    readonly index: number,
  ) {}
}

export function parseJsonWithPositions(text: string): JsonParseResult {
  const parser = new Parser(text);
  try {
    return { ok: true, value: parser.document() };
  } catch (failure) {
    if (!(failure instanceof SyntaxFailure)) throw failure;
    return { ok: false, error: { message: failure.message, ...parser.position(failure.index) } };
  }
}

/** The last entry of a key wins, as in JSON.parse and serde_json. */
export function jsonEntry(obj: JsonObject, key: string): JsonEntry | undefined {
  for (let i = obj.entries.length - 1; i >= 0; i--) if (obj.entries[i]!.key === key) return obj.entries[i];
  return undefined;
}

/** The plain value of a node, as JSON.parse would return it. */
export function jsonValue(node: JsonNode): unknown {
  switch (node.kind) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const e of node.entries) out[e.key] = jsonValue(e.value);
      return out;
    }
    case 'array':
      return node.items.map(jsonValue);
    default:
      return node.value;
  }
}

/** A backslash or a control character: the string needs the careful path. */
// eslint-disable-next-line no-control-regex -- JSON forbids raw control characters in strings: finding them is the point.
const PLAIN_NEEDS_CARE = /[\\\u0000-\u001f]/;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERALS: ReadonlyArray<[string, boolean | null]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];

class Parser {
  private i = 0;
  private lineStarts: number[] | undefined;
  // JSON allows raw newlines only in white space, so skipSpace keeps these current.
  private line = 1;
  private lineStart = 0;

  constructor(private readonly text: string) {
    // A UTF-8 byte order mark is tolerated: editors on some systems write one.
    if (text.charCodeAt(0) === 0xfeff) this.i = this.lineStart = 1;
  }

  document(): JsonNode {
    this.skipSpace();
    const value = this.value(0);
    this.skipSpace();
    if (this.i < this.text.length) this.fail('unexpected content after the JSON value');
    return value;
  }

  /** The position of `this.i`, in constant time. */
  private here(): JsonPosition {
    return { line: this.line, column: this.i - this.lineStart + 1 };
  }

  /** The position of any index (for syntax errors), by binary search over line starts. */
  position(index: number): JsonPosition {
    const starts = (this.lineStarts ??= lineStartsOf(this.text));
    const line = lineIndexAt(starts, index);
    return { line: line + 1, column: index - starts[line]! + 1 };
  }

  private value(depth: number): JsonNode {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH} levels`);
    const { line, column } = this.here();
    const code = this.text.charCodeAt(this.i);
    if (code === 0x7b /* { */) return this.object(depth);
    if (code === 0x5b /* [ */) return this.array(depth);
    if (code === 0x22 /* " */) return { kind: 'string', value: this.string(), line, column };
    if (code === 0x2d /* - */ || (code >= 0x30 && code <= 0x39)) {
      NUMBER.lastIndex = this.i;
      const m = NUMBER.exec(this.text);
      if (!m) this.fail('invalid number');
      this.i += m[0].length;
      const node: JsonScalar = { kind: 'number', value: Number(m[0]), line, column };
      if (/[.eE]/.test(m[0])) node.float = true;
      return node;
    }
    for (const [word, value] of LITERALS) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return { kind: value === null ? 'null' : 'boolean', value, line, column };
      }
    }
    if (Number.isNaN(code)) this.fail('unexpected end of input, expected a value');
    this.fail(`unexpected character ${describeChar(this.text[this.i]!)}, expected a value`);
  }

  private object(depth: number): JsonObject {
    const { line, column } = this.here();
    const node: JsonObject = { kind: 'object', entries: [], line, column };
    this.i++; // {
    this.skipSpace();
    if (this.text[this.i] === '}') {
      this.i++;
      return node;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.i] !== '"')
        this.fail(this.i >= this.text.length ? 'unexpected end of input, expected a key' : 'expected a string key');
      const keyPos = this.here();
      const key = this.string();
      this.skipSpace();
      if (this.text[this.i] !== ':') this.fail(`expected ':' after key "${key}"`);
      this.i++;
      this.skipSpace();
      node.entries.push({ key, value: this.value(depth + 1), line: keyPos.line, column: keyPos.column });
      this.skipSpace();
      const next = this.text[this.i];
      if (next === ',') {
        this.afterComma('}');
        continue;
      }
      if (next === '}') {
        this.i++;
        return node;
      }
      this.fail(next === undefined ? "unexpected end of input, expected ',' or '}'" : "expected ',' or '}'");
    }
  }

  private array(depth: number): JsonArray {
    const { line, column } = this.here();
    const node: JsonArray = { kind: 'array', items: [], line, column };
    this.i++; // [
    this.skipSpace();
    if (this.text[this.i] === ']') {
      this.i++;
      return node;
    }
    for (;;) {
      this.skipSpace();
      node.items.push(this.value(depth + 1));
      this.skipSpace();
      const next = this.text[this.i];
      if (next === ',') {
        this.afterComma(']');
        continue;
      }
      if (next === ']') {
        this.i++;
        return node;
      }
      this.fail(next === undefined ? "unexpected end of input, expected ',' or ']'" : "expected ',' or ']'");
    }
  }

  private string(): string {
    const text = this.text;
    this.i++; // opening quote
    // Fast path: most strings have no escape and no control character.
    const close = text.indexOf('"', this.i);
    if (close !== -1) {
      const raw = text.slice(this.i, close);
      if (!PLAIN_NEEDS_CARE.test(raw)) {
        this.i = close + 1;
        return raw;
      }
    }
    let out = '';
    let runStart = this.i;
    for (;;) {
      const code = text.charCodeAt(this.i);
      if (Number.isNaN(code)) this.fail('unterminated string');
      if (code === 0x22) {
        out += text.slice(runStart, this.i);
        this.i++;
        return out;
      }
      if (code < 0x20) this.fail('control character in string');
      if (code !== 0x5c) {
        this.i++;
        continue;
      }
      out += text.slice(runStart, this.i);
      const esc = text[this.i + 1];
      const simple = esc === undefined ? undefined : ESCAPES[esc];
      if (simple !== undefined) {
        out += simple;
        this.i += 2;
      } else if (esc === 'u') {
        const hex = text.slice(this.i + 2, this.i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('invalid \\u escape in string');
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += 6;
      } else {
        this.fail('invalid escape in string');
      }
      runStart = this.i;
    }
  }

  private skipSpace(): void {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.i);
      if (c === 0x0a) {
        this.i++;
        this.line++;
        this.lineStart = this.i;
      } else if (c === 0x20 || c === 0x0d || c === 0x09) this.i++;
      else return;
    }
  }

  /**
   * Past a `,`: a closing bracket right after it is a trailing comma (JSONC and JavaScript allow
   * one, JSON does not), reported at the comma rather than at the bracket a line later.
   */
  private afterComma(close: '}' | ']'): void {
    const comma = this.i;
    this.i++;
    this.skipSpace();
    if (this.text[this.i] === close) throw new SyntaxFailure(`trailing comma before '${close}'`, comma);
  }

  private fail(message: string): never {
    throw new SyntaxFailure(message, this.i);
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Offsets of the start of every line (also for text edits over the parsed tree). */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 0-based line holding `offset`, from `lineStartsOf`'s offsets, by binary search. */
export function lineIndexAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function describeChar(ch: string): string {
  const code = ch.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${ch}'`;
}
