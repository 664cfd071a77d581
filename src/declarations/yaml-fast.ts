// A fast reader for the plain YAML most front matters are written in: block maps and block
// lists, plain and quoted one-line scalars, one-line flow lists of scalars, literal block
// scalars (`|`, `|-`), comments. It records the line and column of every key and list item, as
// the full parser's locator would.
//
// Why: the `yaml` package needs about half a millisecond per small document, which is most of
// the time of loading thousands of SKILL.md files, and its ~70 modules are a large part of a
// command's start-up. This reader handles the common shape in a few microseconds and gives up
// (returns undefined) on anything else — anchors, aliases, tags, folded and keep-chomping block
// scalars, indentation indicators, flow maps, multi-line scalars, duplicate keys, tabs, odd
// indentation, a CR that does not end a line — and the caller then uses the full parser, which
// also reports every error. Whatever it does accept, it reads exactly as the `yaml` package
// (YAML 1.2 core schema) does; tests compare the two, on fixed and on generated documents.
//
// It walks the text with offsets and keeps positions in two flat arrays: the array of lines, the
// object and strings per line and the Map keyed by joined paths it used to build were a large
// share of the garbage of `hooks list` over 4,000 SKILL.md files.
import type { Locator, PathSeg } from './source-file.js';

export interface FastYaml {
  data: Record<string, unknown>;
  locate: Locator;
}

class GiveUp extends Error {}

/** One instance: giving up is control flow, so no stack is captured each time. */
const GIVE_UP = new GiveUp('not for the fast reader');

const giveUp = (): never => {
  throw GIVE_UP;
};

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const HASH = 0x23;
const DASH = 0x2d;
const COLON = 0x3a;
const PIPE = 0x7c;

/** Reads `text` (a front matter body starting at file line `firstLine`); undefined = use the full parser. */
export function readFastYaml(text: string, firstLine: number): FastYaml | undefined {
  // A CR is read only as the first half of a CRLF.
  const crlf = text.includes('\r');
  if (crlf && /\r(?!\n)/.test(text)) return undefined;
  const reader = new Reader(text, firstLine, crlf);
  try {
    reader.advance();
    if (reader.eof) return { data: {}, locate: () => undefined };
    if (reader.ind !== 0) return undefined;
    const data = reader.map(0);
    if (!reader.eof) return undefined;
    return { data, locate: reader.locator() };
  } catch (err) {
    if (err === GIVE_UP) return undefined;
    throw err;
  }
}

/** Whether only spaces and tabs, or those and a comment, fill `text` from `from` to `end`. */
function nothingMore(text: string, from: number, end: number): boolean {
  let i = from;
  while (i < end && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  if (i === end) return true;
  if (i === from || text.charCodeAt(i) !== HASH) return false;
  // As /.*/ would: a comment holds no line or paragraph separator.
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2028 || c === 0x2029) return false;
  }
  return true;
}

class Reader {
  /** No line is left. */
  eof = false;
  /** The current line: where it starts, where its text starts (after the indentation), where it ends (before CR LF). */
  private ls = 0;
  private ts = 0;
  private le = 0;
  /** Column of the current text: its indentation or, for a list item's map, the item's column. */
  ind = 0;
  /** 0-based number of the current line. */
  private no = -1;
  /** Start and number of the line after the current one. */
  private nx = 0;
  private nextNo = 0;
  /** Set by splitKey: the key, and where the text after its colon starts. */
  private key = '';
  private rs = 0;
  /** Set by quoted: the value read. */
  private qv = '';
  /**
   * Marked paths in document order (a key's or item's subtree follows it): the last segment of
   * each, and at 3·i its line, column and the index just past its subtree.
   */
  private readonly segs: PathSeg[] = [];
  private readonly marks: number[] = [];

  constructor(
    private readonly text: string,
    private readonly firstLine: number,
    private readonly crlf: boolean,
  ) {}

  /** The newline that ends the line starting at `p`, or the text's length for the last line. */
  private newlineAt(p: number): number {
    const nl = this.text.indexOf('\n', p);
    return nl === -1 ? this.text.length : nl;
  }

  /** Where the text of the line from `p` to newline `nl` ends: before the CR of a CR LF. */
  private contentEnd(p: number, nl: number): number {
    const crlf = this.crlf && nl < this.text.length && nl > p && this.text.charCodeAt(nl - 1) === CR;
    return crlf ? nl - 1 : nl;
  }

  /** Moves to the next line with more than white space or a comment; gives up on one it cannot read. */
  advance(): void {
    const text = this.text;
    const len = text.length;
    let p = this.nx;
    let no = this.nextNo;
    while (p <= len) {
      const nl = this.newlineAt(p);
      const next = nl + 1;
      const e = this.contentEnd(p, nl);
      let t = p;
      while (text.charCodeAt(t) === SPACE) t++;
      const c = t < e ? text.charCodeAt(t) : HASH;
      if (c === HASH) {
        p = next;
        no++;
        continue;
      }
      if (
        c === TAB ||
        c === 0x25 /* % */ ||
        (c === DASH && text.startsWith('---', t)) ||
        (c === 0x2e /* . */ && text.startsWith('...', t))
      )
        giveUp();
      this.ls = p;
      this.ts = t;
      this.le = e;
      this.ind = t - p;
      this.no = no;
      this.nx = next;
      this.nextNo = no + 1;
      return;
    }
    this.eof = true;
    this.nx = p;
    this.nextNo = no;
  }

  /** The positions as a Locator: each path segment is looked up among its parent's children. */
  locator(): Locator {
    const { segs, marks } = this;
    return (path: readonly PathSeg[]) => {
      if (path.length === 0) return undefined;
      let at = -1;
      let i = 0;
      let end = segs.length;
      for (const seg of path) {
        while (i < end && segs[i] !== seg) i = marks[3 * i + 2]!;
        if (i >= end) return undefined;
        at = i;
        end = marks[3 * i + 2]!;
        i++;
      }
      return { line: marks[3 * at]!, column: marks[3 * at + 1]! };
    };
  }

  private mark(seg: PathSeg, column: number): number {
    const i = this.segs.length;
    this.segs.push(seg);
    this.marks.push(this.no + this.firstLine, column + 1, i + 1);
    return i;
  }

  /** Ends mark `i`'s subtree: what was marked since belongs to it. */
  private close(i: number): void {
    this.marks[3 * i + 2] = this.segs.length;
  }

  private isListItem(at: number): boolean {
    return this.text.charCodeAt(at) === DASH && (at + 1 === this.le || this.text.charCodeAt(at + 1) === SPACE);
  }

  /** A block map whose keys sit at column `indent`. */
  map(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    while (!this.eof) {
      if (this.ind < indent) break;
      if (this.ind > indent || this.isListItem(this.ts)) giveUp();
      if (!this.splitKey(this.ts)) giveUp();
      const key = this.key;
      if (Object.hasOwn(out, key) || key === '__proto__') giveUp();
      const entry = this.mark(key, this.ind);
      out[key] = this.valueAfter(indent);
      this.close(entry);
    }
    return out;
  }

  /** The value after `key:` (from `rs`): inline on the line, a block scalar, or a nested block below it. */
  private valueAfter(parentIndent: number): unknown {
    const text = this.text;
    const le = this.le;
    let s = this.rs;
    while (text.charCodeAt(s) === SPACE) s++;
    if (s < le && text.charCodeAt(s) === PIPE) {
      const header = this.blockHeader(s);
      if (header === -1) giveUp();
      return this.blockScalar(parentIndent, header === 1);
    }
    while (s < le && (text.charCodeAt(s) === SPACE || text.charCodeAt(s) === TAB)) s++;
    if (s === le || text.charCodeAt(s) === HASH) {
      this.advance();
      if (this.eof || this.ind < parentIndent) return null;
      // A list may sit at its key's own indentation.
      if (this.ind === parentIndent) return this.isListItem(this.ts) ? this.list(parentIndent) : null;
      return this.isListItem(this.ts) ? this.list(this.ind) : this.map(this.ind);
    }
    const value = this.inline(s);
    this.advance();
    this.noContinuation(parentIndent);
    return value;
  }

  /** A block list whose dashes sit at column `indent`. */
  private list(indent: number): unknown[] {
    const text = this.text;
    const out: unknown[] = [];
    while (!this.eof) {
      if (this.ind !== indent || !this.isListItem(this.ts)) {
        if (this.ind > indent) giveUp();
        break;
      }
      let s = this.ts + 1;
      while (text.charCodeAt(s) === SPACE) s++;
      if (text.charCodeAt(s) === TAB) giveUp(); // where such an item starts: not worth the doubt
      const column = s - this.ls;
      const entry = this.mark(out.length, column);
      if (s === this.le || text.charCodeAt(s) === HASH) {
        // `-` alone: the item is the block below (or null), and is found where that starts.
        this.advance();
        if (this.eof || this.ind <= indent) out.push(null);
        else {
          this.marks[3 * entry] = this.no + this.firstLine;
          this.marks[3 * entry + 1] = this.ind + 1;
          out.push(this.isListItem(this.ts) ? this.list(this.ind) : this.map(this.ind));
        }
      } else if (this.isListItem(s)) giveUp();
      else if (text.charCodeAt(s) === PIPE) {
        // `- |`: the block's lines must be indented more than the dash.
        const header = this.blockHeader(s);
        if (header === -1) giveUp();
        out.push(this.blockScalar(indent, header === 1));
      } else if (this.splitKey(s)) {
        // `- key: value`: a map whose keys sit at the item's column. Read it as if the item's
        // text were its own line.
        this.ts = s;
        this.ind = column;
        out.push(this.map(column));
      } else {
        out.push(this.inline(s));
        this.advance();
        this.noContinuation(indent);
      }
      this.close(entry);
    }
    return out;
  }

  /** A line deeper than its parent right after a scalar would continue it: not ours. */
  private noContinuation(parentIndent: number): void {
    if (!this.eof && this.ind > parentIndent) giveUp();
  }

  /**
   * `key: rest` at `s` with a plain or quoted key: false when the text is not a map entry, else
   * true with `key` and `rs` (the offset after the colon) set.
   */
  private splitKey(s: number): boolean {
    const text = this.text;
    const le = this.le;
    let after: number;
    const c = text.charCodeAt(s);
    if (c === 0x22 || c === 0x27) {
      const end = this.quoted(s);
      if (end === -1) return false;
      this.key = this.qv;
      after = end;
      while (text.charCodeAt(after) === SPACE) after++;
      if (after >= le || text.charCodeAt(after) !== COLON) return false;
    } else {
      // The first `:` followed by a space or the end of the line.
      let m = s;
      for (;;) {
        m = text.indexOf(':', m);
        if (m === -1 || m >= le) return false;
        if (m + 1 === le || text.charCodeAt(m + 1) === SPACE) break;
        m++;
      }
      let end = m;
      while (end > s && text.charCodeAt(end - 1) === SPACE) end--;
      if (end === s || isIndicator(text.charCodeAt(s), KEY_INDICATORS)) giveUp();
      const key = text.slice(s, end);
      if (key.includes(' #') || key.includes('\t')) giveUp();
      if (plain(key) !== key) giveUp(); // a key that reads as null, a boolean or a number
      this.key = key;
      after = m;
    }
    const rest = after + 1;
    if (rest < le && text.charCodeAt(rest) !== SPACE) return false;
    this.rs = rest;
    return true;
  }

  /** The scalar or flow list written from `s` (not white space) to the end of the line, without its trailing comment. */
  private inline(s: number): unknown {
    const text = this.text;
    let start = s;
    while (text.charCodeAt(start) === SPACE || text.charCodeAt(start) === TAB) start++;
    const le = this.le;
    const c = text.charCodeAt(start);
    if (c === 0x22 || c === 0x27) {
      const end = this.quoted(start);
      if (end === -1 || !nothingMore(text, end, le)) giveUp();
      return this.qv;
    }
    if (c === 0x5b /* [ */) return this.flowList(start);
    // A plain scalar ends where a comment starts (` #`); quotes inside it are ordinary text.
    let end = le;
    for (let h = text.indexOf('#', start + 1); h !== -1 && h < le; h = text.indexOf('#', h + 1)) {
      const before = text.charCodeAt(h - 1);
      if (before === SPACE || before === TAB) {
        end = h;
        break;
      }
    }
    while (end > start && (text.charCodeAt(end - 1) === SPACE || text.charCodeAt(end - 1) === TAB)) end--;
    return plain(text.slice(start, end));
  }

  /** A one-line flow list of scalars, `[a, "b", 'c']`, maybe followed by a comment; marks its items. */
  private flowList(open: number): unknown[] {
    const text = this.text;
    const le = this.le;
    const out: unknown[] = [];
    let i = open + 1;
    const skip = () => {
      while (text.charCodeAt(i) === SPACE) i++;
    };
    skip();
    if (i < le && text.charCodeAt(i) === 0x5d /* ] */) {
      if (!nothingMore(text, i + 1, le)) giveUp();
      return out;
    }
    for (;;) {
      skip();
      this.mark(out.length, i - this.ls); // a scalar: nothing below it
      const c = text.charCodeAt(i);
      if (i < le && (c === 0x22 || c === 0x27)) {
        const end = this.quoted(i);
        if (end === -1) giveUp();
        out.push(this.qv);
        i = end;
      } else {
        const start = i;
        while (i < le && text.charCodeAt(i) !== 0x2c /* , */ && text.charCodeAt(i) !== 0x5d) i++;
        let end = i;
        while (end > start && text.charCodeAt(end - 1) === SPACE) end--;
        const item = text.slice(start, end);
        if (
          item === '' ||
          /[[{}#]/.test(item) ||
          /^[-?:](?: |$)/.test(item) ||
          item.includes(': ') ||
          item.endsWith(':')
        )
          giveUp();
        out.push(plain(item));
      }
      skip();
      if (i < le && text.charCodeAt(i) === 0x5d) {
        if (!nothingMore(text, i + 1, le)) giveUp();
        return out;
      }
      if (i >= le || text.charCodeAt(i) !== 0x2c) giveUp();
      i++;
      skip();
      if (i < le && text.charCodeAt(i) === 0x5d) giveUp(); // a trailing comma: leave it to the full parser
    }
  }

  /**
   * A one-line quoted scalar starting at `s`: the offset after its closing quote (its value in
   * `qv`), or -1 when it does not close on the line. Runs without escapes are sliced whole.
   */
  private quoted(s: number): number {
    const text = this.text;
    const le = this.le;
    let value = '';
    let from = s + 1;
    let i = from;
    if (text.charCodeAt(s) === 0x27) {
      for (;;) {
        i = text.indexOf("'", i);
        if (i === -1 || i >= le) return -1;
        if (i + 1 < le && text.charCodeAt(i + 1) === 0x27) {
          value += text.slice(from, i + 1);
          i += 2;
          from = i;
          continue;
        }
        this.qv = value + text.slice(from, i);
        return i + 1;
      }
    }
    while (i < le) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        this.qv = value + text.slice(from, i);
        return i + 1;
      }
      if (c !== 0x5c /* \ */) {
        i++;
        continue;
      }
      value += text.slice(from, i);
      if (i + 1 >= le) return -1;
      const e = text[i + 1]!;
      if (e === 'x' || e === 'u' || e === 'U') {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        if (i + 2 + len > le) giveUp();
        const hex = text.slice(i + 2, i + 2 + len);
        if (!/^[0-9a-fA-F]+$/.test(hex)) giveUp();
        const cp = Number.parseInt(hex, 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) giveUp();
        value += String.fromCodePoint(cp);
        i += 2 + len;
      } else {
        const esc = DOUBLE_QUOTE_ESCAPES[e];
        if (esc === undefined) giveUp();
        value += esc;
        i += 2;
      }
      from = i;
    }
    return -1;
  }

  /**
   * The header of a literal block scalar at `s` (a `|`), maybe followed by spaces and a comment:
   * 1 for strip (`|-`), 0 for clip (`|`), -1 for anything else. Keep (`|+`), an indentation
   * indicator (`|2`) and tabs are left to the full parser.
   */
  private blockHeader(s: number): number {
    const text = this.text;
    const le = this.le;
    let i = s + 1;
    let strip = 0;
    if (i < le && text.charCodeAt(i) === DASH) {
      strip = 1;
      i++;
    }
    if (i === le) return strip;
    if (text.charCodeAt(i) !== SPACE) return -1;
    while (i < le && text.charCodeAt(i) === SPACE) i++;
    return i === le || text.charCodeAt(i) === HASH ? strip : -1;
  }

  /**
   * A literal block scalar whose header ends the current line, in a map or list whose keys or
   * dashes sit at column `parentIndent`; leaves the reader on the first line after it. Read as
   * the `yaml` package reads it:
   * - its indentation is that of the first line with more than spaces, which must be deeper
   *   than `parentIndent` (else the scalar is empty and that line is the next structure);
   * - the block ends before the first line, other than a blank one, that is less indented; lines
   *   at or past the indentation are content as written, `#` and all;
   * - a line of spaces only is an empty line when no longer than the indentation, else content
   *   (the spaces past it); a leading one longer than the first content line is an error;
   * - clip (`|`) keeps one final line break, strip (`|-`) none; trailing empty lines go either way,
   *   and a scalar with no content at all is "".
   * A tab in an indentation is left to the full parser, and so are blank lines only, some deeper
   * than the parent (the full parser reads them as "", but that is its corner, not ours).
   */
  private blockScalar(parentIndent: number, strip: boolean): string {
    const text = this.text;
    const len = text.length;
    let indent = -1;
    let value = '';
    /** Line breaks since the last content line: written only if more content follows. */
    let breaks = 0;
    let leadingSpaces = 0;
    let p = this.nx;
    let no = this.nextNo;
    for (; p <= len; no++) {
      const nl = this.newlineAt(p);
      const next = nl + 1;
      const e = this.contentEnd(p, nl);
      let s = p;
      while (text.charCodeAt(s) === SPACE) s++;
      const spaces = s - p;
      if (s === e) {
        if (indent === -1) {
          if (spaces > leadingSpaces) leadingSpaces = spaces;
          breaks++;
        } else if (spaces > indent) {
          value += '\n'.repeat(breaks) + text.slice(p + indent, e) + '\n';
          breaks = 0;
        } else breaks++;
        p = next;
        continue;
      }
      if (indent === -1) {
        if (spaces <= parentIndent) break;
        if (text.charCodeAt(s) === TAB) giveUp();
        // More-indented leading blank lines need an indentation indicator: an error.
        if (leadingSpaces > spaces) giveUp();
        indent = spaces;
      }
      if (spaces < indent) break;
      value += (breaks === 0 ? '' : '\n'.repeat(breaks)) + text.slice(p + indent, e) + '\n';
      breaks = 0;
      p = next;
    }
    if (indent === -1 && leadingSpaces > parentIndent) giveUp();
    this.nx = p;
    this.nextNo = no;
    this.advance();
    this.noContinuation(parentIndent);
    return strip && value !== '' ? value.slice(0, -1) : value;
  }
}

const DOUBLE_QUOTE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

/** Characters a plain scalar cannot start with (and `-`, `?`, `:` when a space or the end follows). */
const PLAIN_INDICATORS = 1;
/** Characters a plain key cannot start with. */
const KEY_INDICATORS = 2;
const INDICATORS = new Uint8Array(128);
for (const c of '[]{}&*!|>\'"%@`,') INDICATORS[c.charCodeAt(0)] = PLAIN_INDICATORS | KEY_INDICATORS;
for (const c of '-?:#') INDICATORS[c.charCodeAt(0)] = KEY_INDICATORS;

function isIndicator(c: number, kind: number): boolean {
  return c < 128 && (INDICATORS[c]! & kind) !== 0;
}

/** A plain scalar resolved by the YAML 1.2 core schema. */
function plain(text: string): unknown {
  // Character tests, not regular expressions: this runs for every key and value.
  const c = text.charCodeAt(0);
  if (isIndicator(c, PLAIN_INDICATORS)) giveUp();
  if ((c === DASH || c === 0x3f /* ? */ || c === COLON) && (text.length === 1 || text.charCodeAt(1) === SPACE))
    giveUp();
  if (text.includes(': ') || text.endsWith(':') || text.includes('\t')) giveUp();
  switch (text) {
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
    case '.inf':
    case '.Inf':
    case '.INF':
    case '+.inf':
    case '+.Inf':
    case '+.INF':
      return Number.POSITIVE_INFINITY;
    case '-.inf':
    case '-.Inf':
    case '-.INF':
      return Number.NEGATIVE_INFINITY;
    case '.nan':
    case '.NaN':
    case '.NAN':
      return Number.NaN;
  }
  // Only text that starts like a number can be one.
  if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
    if (/^0o[0-7]+$/.test(text)) return Number.parseInt(text.slice(2), 8);
    if (/^0x[0-9a-fA-F]+$/.test(text)) return Number.parseInt(text.slice(2), 16);
    if (/^[-+]?[0-9]+$/.test(text)) {
      const n = Number(text);
      if (!Number.isSafeInteger(n)) giveUp(); // big integers: the full parser decides
      return n;
    }
    if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  }
  return text;
}
