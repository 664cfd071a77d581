// Where each key of a TOML document is written. smol-toml parses values but keeps no positions,
// so this scanner walks the text once and records the line and column of every table header,
// array-of-tables element (`[[hooks.declarations]]` → `hooks.declarations[2]`), key (dotted
// keys and inline tables included) and inline array element. It never judges validity: the
// parser does that; on text it cannot follow it simply records less.
import type { Locator, PathSeg, Position } from './source-file.js';

/** One key (or list item) of the document: where it is written, and what is below it. */
interface KeyNode {
  at?: Position;
  children?: Map<PathSeg, KeyNode>;
  /** For an array of tables: the index of its last `[[...]]` element. */
  lastIndex?: number;
}

/**
 * Positions are found in two steps. The first scan records only table headers, which is all
 * a loader needs for every declaration (its `[[...]]` line) and cheap for 10,000 of them. The
 * first question about any other key (a diagnostic's line) runs the full scan, once.
 */
export class TomlLocations {
  private full: KeyNode | undefined;

  constructor(
    private readonly text: string,
    private readonly lineOffset: number,
    private readonly headers: KeyNode,
  ) {}

  /** A path as segments, or as text such as `hooks.declarations[2].matcher.tool_id`. */
  get(path: string | readonly PathSeg[]): Position | undefined {
    const segs = typeof path === 'string' ? parseKeyPath(path) : path;
    if (this.full === undefined) {
      const header = lookup(this.headers, segs);
      if (header !== undefined) return header;
      this.full = scan(this.text, this.lineOffset, false);
    }
    return lookup(this.full, segs);
  }

  get locate(): Locator {
    return (path) => this.get(path);
  }
}

/** Scans TOML text; `lineOffset` is added to every line (for a TOML front matter). */
export function locateTomlKeys(text: string, lineOffset = 0): TomlLocations {
  return new TomlLocations(text, lineOffset, scan(text, lineOffset, true));
}

function scan(text: string, lineOffset: number, headersOnly: boolean): KeyNode {
  const scanner = new TomlScanner(text, lineOffset, headersOnly);
  scanner.run();
  return scanner.root;
}

function lookup(root: KeyNode, path: readonly PathSeg[]): Position | undefined {
  let node: KeyNode | undefined = root;
  for (const seg of path) {
    node = node.children?.get(seg);
    if (node === undefined) return undefined;
  }
  return node.at;
}

/** `hooks.declarations[2]["odd.key"].x` → ['hooks', 'declarations', 2, 'odd.key', 'x']. */
export function parseKeyPath(text: string): PathSeg[] {
  const segs: PathSeg[] = [];
  const re = /\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|([^.[\]]+)/g;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) segs.push(Number(m[1]));
    else if (m[2] !== undefined) segs.push(JSON.parse(m[2]) as string);
    else segs.push(m[3]!);
  }
  return segs;
}

/** The child for `seg`, created on first sight; its position is the first place it is written. */
function child(node: KeyNode, seg: PathSeg, at: Position): KeyNode {
  node.children ??= new Map();
  let found = node.children.get(seg);
  if (found === undefined) {
    found = { at };
    node.children.set(seg, found);
  }
  return found;
}

class TomlScanner {
  readonly root: KeyNode = {};
  private i = 0;
  private line = 1;
  private lineStart = 0;
  private table: KeyNode = this.root;

  constructor(
    private readonly s: string,
    private readonly lineOffset: number,
    /** Record table headers only (keys are still read, to skip their values correctly). */
    private readonly headersOnly: boolean,
  ) {}

  run(): void {
    const s = this.s;
    while (this.i < s.length) {
      if (this.headersOnly && this.skipOneLineKeyValue()) continue;
      this.skipBlank();
      const c = s[this.i];
      if (c === undefined) break;
      if (c === '\n' || c === '\r') this.newline();
      else if (c === '#') this.skipToLineEnd();
      else {
        if (c === '[') this.header();
        else this.keyValue(this.table);
        this.skipToLineEnd();
      }
    }
  }

  /**
   * At a line start: skips a `key = value` line whose value cannot run onto the next line, in
   * one regular expression. In the headers-only scan such a line records nothing, and for a
   * config.toml of 2,000 declarations the character-by-character walk below, run once and so
   * mostly before the JIT has compiled it, cost tens of milliseconds. Anything else (headers,
   * comments, multi-line strings and arrays, inline tables, odd keys) is left to that walk.
   */
  private skipOneLineKeyValue(): boolean {
    ONE_LINE_KEY_VALUE.lastIndex = this.i;
    if (!ONE_LINE_KEY_VALUE.test(this.s)) return false;
    this.i = ONE_LINE_KEY_VALUE.lastIndex;
    if (this.s.charCodeAt(this.i - 1) === 0x0a) {
      this.line++;
      this.lineStart = this.i;
    }
    return true;
  }

  private here(): Position {
    return { line: this.line + this.lineOffset, column: this.i - this.lineStart + 1 };
  }

  private header(): void {
    const at = this.here();
    this.i++;
    const isArray = this.s[this.i] === '[';
    if (isArray) this.i++;
    const segs = this.key();
    if (segs === undefined) return;
    let node = this.root;
    for (let k = 0; k < segs.length; k++) {
      node = child(node, segs[k]!, at);
      if (isArray && k === segs.length - 1) {
        const index = (node.lastIndex ?? -1) + 1;
        node.lastIndex = index;
        node = child(node, index, at);
      } else if (node.lastIndex !== undefined) node = child(node, node.lastIndex, at);
    }
    this.table = node;
  }

  private keyValue(base: KeyNode | null): boolean {
    let node: KeyNode | null = null;
    if (this.headersOnly) {
      if (!this.skipKey()) return false;
    } else {
      const at = this.here();
      const segs = this.key();
      if (segs === undefined) return false;
      node = base;
      if (node !== null) for (const seg of segs) node = child(node, seg, at);
    }
    this.skipBlank();
    if (this.s[this.i] !== '=') return false;
    this.i++;
    this.skipBlank();
    this.value(node);
    return true;
  }

  /** key() without building anything: only moves past the key. */
  private skipKey(): boolean {
    const s = this.s;
    for (;;) {
      this.skipBlank();
      const c = s.charCodeAt(this.i);
      if (c === 0x22) this.basicString();
      else if (c === 0x27) this.literalString();
      else {
        const start = this.i;
        while (this.i < s.length && isBareKeyChar(s.charCodeAt(this.i))) this.i++;
        if (this.i === start) return false;
      }
      this.skipBlank();
      if (s.charCodeAt(this.i) !== 0x2e) return true;
      this.i++;
    }
  }

  /** A possibly dotted key; undefined when there is none here. */
  private key(): string[] | undefined {
    const segs: string[] = [];
    for (;;) {
      this.skipBlank();
      const c = this.s[this.i];
      let seg: string | undefined;
      if (c === '"') seg = this.basicString();
      else if (c === "'") seg = this.literalString();
      else {
        const start = this.i;
        while (this.i < this.s.length && isBareKeyChar(this.s.charCodeAt(this.i))) this.i++;
        if (this.i > start) seg = this.s.slice(start, this.i);
      }
      if (seg === undefined) return undefined;
      segs.push(seg);
      this.skipBlank();
      if (this.s[this.i] !== '.') return segs;
      this.i++;
    }
  }

  private value(node: KeyNode | null): void {
    const s = this.s;
    if (s.startsWith('"""', this.i)) this.multilineString('"');
    else if (s.startsWith("'''", this.i)) this.multilineString("'");
    else if (s[this.i] === '"') this.basicString();
    else if (s[this.i] === "'") this.literalString();
    else if (s[this.i] === '[') this.array(node);
    else if (s[this.i] === '{') this.inlineTable(node);
    else {
      // Numbers, booleans, dates (which may contain a space): up to the next delimiter.
      while (this.i < s.length && !isScalarEnd(s.charCodeAt(this.i))) this.i++;
    }
  }

  private array(node: KeyNode | null): void {
    this.i++;
    for (let index = 0; ; index++) {
      this.skipSpace();
      if (this.i >= this.s.length) return;
      if (this.s[this.i] === ']') {
        this.i++;
        return;
      }
      this.value(node === null ? null : child(node, index, this.here()));
      this.skipSpace();
      if (this.s[this.i] === ',') this.i++;
      else {
        if (this.s[this.i] === ']') this.i++;
        return;
      }
    }
  }

  private inlineTable(node: KeyNode | null): void {
    this.i++;
    for (;;) {
      this.skipSpace();
      if (this.i >= this.s.length) return;
      if (this.s[this.i] === '}') {
        this.i++;
        return;
      }
      if (!this.keyValue(node)) return;
      this.skipSpace();
      if (this.s[this.i] === ',') this.i++;
      else {
        if (this.s[this.i] === '}') this.i++;
        return;
      }
    }
  }

  /** A "..." string; returns its decoded text (keys need it). */
  private basicString(): string {
    const s = this.s;
    const start = ++this.i;
    const close = s.indexOf('"', start);
    if (close !== -1 && !hasAny(s, start, close, 0x5c, 0x0a)) {
      this.i = close + 1;
      return s.slice(start, close); // no escapes: the common case
    }
    let out = '';
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c === '\n') return out; // unterminated: the parser reports it
      if (c === '\\') {
        const e = s[this.i + 1];
        const simple = e === undefined ? undefined : SIMPLE_ESCAPES[e];
        if (simple !== undefined) {
          out += simple;
          this.i += 2;
        } else if (e === 'u' || e === 'U' || e === 'x') {
          const len = e === 'u' ? 4 : e === 'U' ? 8 : 2;
          const cp = Number.parseInt(s.slice(this.i + 2, this.i + 2 + len), 16);
          out += Number.isNaN(cp) || cp > 0x10ffff ? '' : String.fromCodePoint(cp);
          this.i += 2 + len;
        } else this.i += 2;
        continue;
      }
      out += c;
      this.i++;
    }
    return out;
  }

  private literalString(): string {
    const s = this.s;
    const start = ++this.i;
    let end = s.indexOf("'", start);
    if (end === -1) end = s.length;
    for (let k = start; k < end; k++) {
      if (s.charCodeAt(k) === 0x0a) {
        end = k; // unterminated: the parser reports it
        break;
      }
    }
    this.i = end;
    const out = s.slice(start, end);
    if (s[this.i] === "'") this.i++;
    return out;
  }

  /** Skips a multi-line string, counting the lines it spans. */
  private multilineString(quote: '"' | "'"): void {
    const s = this.s;
    const fence = quote.repeat(3);
    let from = this.i + 3;
    let close: number;
    for (;;) {
      close = s.indexOf(fence, from);
      if (close === -1) {
        close = s.length;
        break;
      }
      // In a basic string, a quote after an odd run of backslashes is escaped.
      let backslashes = 0;
      while (quote === '"' && s[close - 1 - backslashes] === '\\') backslashes++;
      if (backslashes % 2 === 0) break;
      from = close + 1;
    }
    for (let nl = s.indexOf('\n', this.i); nl !== -1 && nl < close; nl = s.indexOf('\n', nl + 1)) {
      this.line++;
      this.lineStart = nl + 1;
    }
    this.i = Math.min(close + 3, s.length);
    // Up to two more quotes belong to the content: """a"""" ends in a quote.
    for (let extra = 0; extra < 2 && s[this.i] === quote; extra++) this.i++;
  }

  /** Spaces and tabs. */
  private skipBlank(): void {
    const s = this.s;
    for (let c = s.charCodeAt(this.i); c === 0x20 || c === 0x09; c = s.charCodeAt(this.i)) this.i++;
  }

  /** Spaces, tabs, newlines and comments (inside arrays and inline tables). */
  private skipSpace(): void {
    for (;;) {
      this.skipBlank();
      const c = this.s.charCodeAt(this.i);
      if (c === 0x0a || c === 0x0d) this.newline();
      else if (c === 0x23) this.skipComment();
      else return;
    }
  }

  private skipComment(): void {
    const nl = this.s.indexOf('\n', this.i);
    this.i = nl === -1 ? this.s.length : nl;
  }

  private skipToLineEnd(): void {
    this.skipComment();
    if (this.i < this.s.length) this.newline();
  }

  private newline(): void {
    if (this.s.charCodeAt(this.i) === 0x0d && this.s.charCodeAt(this.i + 1) === 0x0a) this.i += 2;
    else this.i++;
    this.line++;
    this.lineStart = this.i;
  }
}

// What the walk reads as one line: a key (bare, quoted or dotted), `=`, then either a value that
// does not open a multi-line string, an array or an inline table (the walk stops such a value at
// the line end at the latest), or an array of strings and bare values closed on the line (no
// comment, no nesting); the rest of the line is skipped, as the walk skips it. (The lookahead
// refuses white space too, or backtracking would let `=[ \t]*` stop short of a `[`.) Every
// caller scans text smol-toml has accepted, where a one-line string never runs on (a `\` before
// the line end is an error there), so the two agree; a generated-document test holds them to it.
const KEY = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\\r\n]|\\[^\r\n])*"|'[^'\r\n]*')`;
const ELEMENT = String.raw`(?:"(?:[^"\\\r\n]|\\[^\r\n])*"|'[^'\r\n]*'|[^"'[{,\]}#\r\n \t][^,\]}#\r\n]*)`;
const ONE_LINE_KEY_VALUE = new RegExp(
  String.raw`[ \t]*${KEY}(?:[ \t]*\.[ \t]*${KEY})*[ \t]*=[ \t]*` +
    String.raw`(?:(?![ \t]|"""|'''|[[{])|\[(?:[ \t]*${ELEMENT}[ \t]*,)*[ \t]*(?:${ELEMENT}[ \t]*)?\])` +
    String.raw`[^\n]*(?:\n|$)`,
  'y',
);

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  '"': '"',
  '\\': '\\',
  e: '\x1b',
};

function isBareKeyChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;
}

/** `,` `]` `}` `#` CR LF end a bare value. */
function isScalarEnd(c: number): boolean {
  return c === 0x2c || c === 0x5d || c === 0x7d || c === 0x23 || c === 0x0d || c === 0x0a;
}

/** Whether s[from, to) holds either character code. */
function hasAny(s: string, from: number, to: number, a: number, b: number): boolean {
  for (let k = from; k < to; k++) {
    const c = s.charCodeAt(k);
    if (c === a || c === b) return true;
  }
  return false;
}
