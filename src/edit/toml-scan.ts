// A TOML document as a list of statements with exact character spans, for editing at the text
// level (smol-toml parses values but keeps no formatting). Every character of the text belongs to
// exactly one item, so cutting and splicing items keeps every other byte as it was.
//
// Items are whole lines: a blank line, a comment line, a table header, or a key/value statement
// (which may span several lines: multi-line strings, arrays, inline tables). Key/value statements
// and inline-table entries record where their key and value are written. The scanner never judges
// validity (the parser does); a line it cannot follow becomes an `other` item.

/** A `key = value`, at the top level of a table or inside an inline table. */
export interface KeyValue {
  /** Dotted key segments, decoded (`"a.b".c` → ['a.b', 'c']). */
  keys: string[];
  /** Offset of the key's first character. */
  keyStart: number;
  /** Offsets of the value text: [valueStart, valueEnd). */
  valueStart: number;
  valueEnd: number;
  /** Set when the value is an inline table. */
  inline?: InlineTable;
}

export interface InlineTable {
  /** Offset of `{`. */
  open: number;
  /** Offset of `}`. */
  close: number;
  entries: KeyValue[];
}

interface Span {
  /** Offset of the first character of the item's first line. */
  start: number;
  /** Offset just past the line break ending the item (or the end of the text). */
  end: number;
}

export type BlankItem = Span & { kind: 'blank' };
export type CommentItem = Span & { kind: 'comment' };
export type OtherItem = Span & { kind: 'other' };
export type HeaderItem = Span & { kind: 'header'; keys: string[]; array: boolean };
export type KeyValueItem = Span & { kind: 'kv'; kv: KeyValue };
export type Item = BlankItem | CommentItem | OtherItem | HeaderItem | KeyValueItem;

/** Splits TOML text into items; their spans tile the text. */
export function scanToml(text: string): Item[] {
  return new Scanner(text).items();
}

class ScanFailure extends Error {}

const BARE_KEY_CHAR = /[A-Za-z0-9_-]/;

class Scanner {
  private i = 0;

  constructor(private readonly s: string) {}

  items(): Item[] {
    const out: Item[] = [];
    while (this.i < this.s.length) out.push(this.statement());
    return out;
  }

  private statement(): Item {
    const start = this.i;
    this.skipBlank();
    const c = this.s[this.i];
    if (c === undefined || this.atLineEnd()) {
      this.endLine();
      return { kind: 'blank', start, end: this.i };
    }
    if (c === '#') {
      this.endLine();
      return { kind: 'comment', start, end: this.i };
    }
    try {
      let item: Item;
      if (c === '[') {
        const { keys, array } = this.header();
        item = { kind: 'header', keys, array, start, end: 0 };
      } else {
        item = { kind: 'kv', kv: this.keyValue(), start, end: 0 };
      }
      this.skipBlank();
      if (this.s[this.i] !== '#' && !this.atLineEnd() && this.i < this.s.length) throw new ScanFailure();
      this.endLine();
      item.end = this.i;
      return item;
    } catch (err) {
      if (!(err instanceof ScanFailure)) throw err;
      this.i = start;
      this.endLine();
      return { kind: 'other', start, end: this.i };
    }
  }

  private header(): { keys: string[]; array: boolean } {
    this.i++;
    const array = this.s[this.i] === '[';
    if (array) this.i++;
    const keys = this.key();
    this.skipBlank();
    this.expect(']');
    if (array) this.expect(']');
    return { keys, array };
  }

  private keyValue(): KeyValue {
    this.skipBlank();
    const keyStart = this.i;
    const keys = this.key();
    this.skipBlank();
    this.expect('=');
    this.skipBlank();
    const valueStart = this.i;
    const { end, inline } = this.value();
    const kv: KeyValue = { keys, keyStart, valueStart, valueEnd: end };
    if (inline) kv.inline = inline;
    return kv;
  }

  private key(): string[] {
    const segs: string[] = [];
    for (;;) {
      this.skipBlank();
      const c = this.s[this.i];
      if (c === '"' && !this.s.startsWith('"""', this.i)) segs.push(this.basicString());
      else if (c === "'" && !this.s.startsWith("'''", this.i)) segs.push(this.literalString());
      else {
        const start = this.i;
        while (this.i < this.s.length && BARE_KEY_CHAR.test(this.s[this.i]!)) this.i++;
        if (this.i === start) throw new ScanFailure();
        segs.push(this.s.slice(start, this.i));
      }
      this.skipBlank();
      if (this.s[this.i] !== '.') return segs;
      this.i++;
    }
  }

  /** Scans one value; `end` is the offset just past it. */
  private value(): { end: number; inline?: InlineTable } {
    const s = this.s;
    const c = s[this.i];
    if (s.startsWith('"""', this.i)) this.multilineString('"');
    else if (s.startsWith("'''", this.i)) this.multilineString("'");
    else if (c === '"') this.basicString();
    else if (c === "'") this.literalString();
    else if (c === '[') this.array();
    else if (c === '{') return this.inlineTable();
    else return { end: this.scalar() };
    return { end: this.i };
  }

  /** Numbers, booleans, dates (a date may contain one space): up to the next delimiter. */
  private scalar(): number {
    const start = this.i;
    while (this.i < this.s.length && !',]}#\n'.includes(this.s[this.i]!)) this.i++;
    let end = this.i;
    while (end > start && ' \t\r'.includes(this.s[end - 1]!)) end--;
    if (end === start) throw new ScanFailure();
    return end;
  }

  private array(): void {
    this.i++;
    for (;;) {
      this.skipSpace();
      if (this.s[this.i] === ']') {
        this.i++;
        return;
      }
      if (this.i >= this.s.length) throw new ScanFailure();
      this.value();
      this.skipSpace();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] === ']') {
        this.i++;
        return;
      } else throw new ScanFailure();
    }
  }

  private inlineTable(): { end: number; inline: InlineTable } {
    const open = this.i++;
    const entries: KeyValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.s[this.i] === '}') break;
      if (this.i >= this.s.length) throw new ScanFailure();
      entries.push(this.keyValue());
      this.skipSpace();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== '}') throw new ScanFailure();
    }
    const close = this.i++;
    return { end: this.i, inline: { open, close, entries } };
  }

  /** A "..." string; returns its decoded text (keys need it). */
  private basicString(): string {
    const s = this.s;
    this.i++;
    let out = '';
    for (;;) {
      const c = s[this.i];
      if (c === undefined || c === '\n') throw new ScanFailure();
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c === '\\') {
        const e = s[this.i + 1];
        const simple: Record<string, string> = {
          b: '\b',
          t: '\t',
          n: '\n',
          f: '\f',
          r: '\r',
          '"': '"',
          '\\': '\\',
          e: '\x1b',
        };
        if (e !== undefined && simple[e] !== undefined) {
          out += simple[e];
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
  }

  private literalString(): string {
    const s = this.s;
    const start = ++this.i;
    while (this.i < s.length && s[this.i] !== "'" && s[this.i] !== '\n') this.i++;
    if (s[this.i] !== "'") throw new ScanFailure();
    return s.slice(start, this.i++);
  }

  private multilineString(quote: '"' | "'"): void {
    const s = this.s;
    const fence = quote.repeat(3);
    this.i += 3;
    while (this.i < s.length) {
      if (s.startsWith(fence, this.i)) {
        this.i += 3;
        // Up to two more quotes belong to the content: """a"""" ends in a quote.
        for (let extra = 0; extra < 2 && s[this.i] === quote; extra++) this.i++;
        return;
      }
      this.i += s[this.i] === '\\' && quote === '"' ? 2 : 1;
    }
    throw new ScanFailure();
  }

  private expect(c: string): void {
    if (this.s[this.i] !== c) throw new ScanFailure();
    this.i++;
  }

  private atLineEnd(): boolean {
    const c = this.s[this.i];
    return c === '\n' || (c === '\r' && this.s[this.i + 1] === '\n');
  }

  /** Spaces and tabs. */
  private skipBlank(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }

  /** Spaces, tabs, line breaks and comments (inside arrays and inline tables). */
  private skipSpace(): void {
    for (;;) {
      this.skipBlank();
      const c = this.s[this.i];
      if (c === '\n' || c === '\r') this.i++;
      else if (c === '#') while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
      else return;
    }
  }

  /** Moves past the rest of the line and its line break. */
  private endLine(): void {
    const nl = this.s.indexOf('\n', this.i);
    this.i = nl === -1 ? this.s.length : nl + 1;
  }
}
