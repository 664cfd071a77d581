// A fast reader for the plain YAML most front matters are written in: block maps and block
// lists, plain and quoted one-line scalars, one-line flow lists of scalars, comments. It records
// the line and column of every key and list item, as the full parser's locator would.
//
// Why: the `yaml` package needs about half a millisecond per small document, which is most of
// the time of loading thousands of SKILL.md files. This reader handles the common shape in a
// few microseconds and gives up (returns undefined) on anything else — anchors, aliases, tags,
// block scalars, flow maps, multi-line scalars, duplicate keys, tabs, odd indentation — and the
// caller then uses the full parser, which also reports every error. Whatever it does accept, it
// reads exactly as the `yaml` package (YAML 1.2 core schema) does; a test compares the two.
import { appendPathKey, pathKey, type Locator, type PathSeg, type Position } from '../source-file.js';

export interface FastYaml {
  data: Record<string, unknown>;
  locate: Locator;
}

interface Line {
  /** 0-based index in the text. */
  no: number;
  indent: number;
  /** The text after the indentation. */
  text: string;
}

class GiveUp extends Error {}

const giveUp = (): never => {
  throw new GiveUp();
};

/** Reads `text` (a front matter body starting at file line `firstLine`); undefined = use the full parser. */
export function readFastYaml(text: string, firstLine: number): FastYaml | undefined {
  const lines: Line[] = [];
  const raw = text.split('\n');
  for (let no = 0; no < raw.length; no++) {
    let s = raw[no]!;
    if (s.endsWith('\r')) s = s.slice(0, -1);
    let indent = 0;
    while (s.charCodeAt(indent) === 0x20) indent++;
    const rest = s.slice(indent);
    if (rest === '' || rest.startsWith('#')) continue;
    if (rest.startsWith('\t') || rest.startsWith('---') || rest.startsWith('...') || rest.startsWith('%'))
      return undefined;
    lines.push({ no, indent, text: rest });
  }
  const reader = new Reader(lines, firstLine);
  try {
    if (lines.length === 0) return { data: {}, locate: () => undefined };
    if (lines[0]!.indent !== 0) return undefined;
    const data = reader.map(0, '');
    if (reader.cur !== lines.length) return undefined;
    const positions = reader.positions;
    return { data, locate: (path: readonly PathSeg[]) => positions.get(pathKey(path)) };
  } catch (err) {
    if (err instanceof GiveUp) return undefined;
    throw err;
  }
}

class Reader {
  cur = 0;
  readonly positions = new Map<string, Position>();

  constructor(
    private readonly lines: Line[],
    private readonly firstLine: number,
  ) {}

  /** Paths travel as their pathKey strings, built one segment at a time. */
  private mark(key: string, line: Line, column: number): void {
    this.positions.set(key, { line: line.no + this.firstLine, column: column + 1 });
  }

  /** A block map whose keys sit at column `indent`. */
  map(indent: number, path: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    while (this.cur < this.lines.length) {
      const line = this.lines[this.cur]!;
      if (line.indent < indent) break;
      if (line.indent > indent || isListItem(line.text)) giveUp();
      const entry = splitKey(line.text);
      if (entry === undefined) giveUp();
      const { key, rest } = entry!;
      if (Object.hasOwn(out, key) || key === '__proto__') giveUp();
      const keyPath = appendPathKey(path, key);
      this.mark(keyPath, line, line.indent);
      this.cur++;
      out[key] = this.valueAfter(rest, indent, keyPath, line, line.indent + line.text.length - rest.length);
    }
    return out;
  }

  /** The value after `key:`: inline on the line, or a nested block below it. */
  private valueAfter(rest: string, parentIndent: number, path: string, line: Line, restColumn: number): unknown {
    const inline = inlineValue(rest);
    if (inline.written) {
      this.markItems(path, line, restColumn, inline.items);
      this.noContinuation(parentIndent);
      return inline.value;
    }
    const next = this.lines[this.cur];
    if (next === undefined || next.indent < parentIndent) return null;
    // A list may sit at its key's own indentation.
    if (next.indent === parentIndent) return isListItem(next.text) ? this.list(parentIndent, path) : null;
    return isListItem(next.text) ? this.list(next.indent, path) : this.map(next.indent, path);
  }

  /** A block list whose dashes sit at column `indent`. */
  private list(indent: number, path: string): unknown[] {
    const out: unknown[] = [];
    while (this.cur < this.lines.length) {
      const line = this.lines[this.cur]!;
      if (line.indent !== indent || !isListItem(line.text)) {
        if (line.indent > indent) giveUp();
        break;
      }
      const itemPath = appendPathKey(path, out.length);
      let offset = 1;
      while (line.text[offset] === ' ') offset++;
      const item = line.text.slice(offset);
      const column = line.indent + offset;
      if (item === '' || item.startsWith('#')) {
        // `-` alone: the item is the block below (or null).
        this.mark(itemPath, line, column);
        this.cur++;
        const next = this.lines[this.cur];
        if (next === undefined || next.indent <= indent) out.push(null);
        else {
          this.mark(itemPath, next, next.indent);
          out.push(isListItem(next.text) ? this.list(next.indent, itemPath) : this.map(next.indent, itemPath));
        }
        continue;
      }
      if (isListItem(item)) giveUp();
      this.mark(itemPath, line, column);
      if (splitKey(item) !== undefined) {
        // `- key: value`: a map whose keys sit at the item's column. Read it as if the item's
        // text were its own line.
        this.lines[this.cur] = { no: line.no, indent: column, text: item };
        out.push(this.map(column, itemPath));
      } else {
        this.cur++;
        const inline = inlineValue(item);
        this.markItems(itemPath, line, column, inline.items);
        out.push(inline.value);
        this.noContinuation(indent);
      }
    }
    return out;
  }

  /** Positions of a flow list's items (offsets from `column`). */
  private markItems(path: string, line: Line, column: number, items: number[] | undefined): void {
    items?.forEach((offset, i) => this.mark(appendPathKey(path, i), line, column + offset));
  }

  /** A line deeper than its parent right after an inline scalar would continue it: not ours. */
  private noContinuation(parentIndent: number): void {
    const next = this.lines[this.cur];
    if (next !== undefined && next.indent > parentIndent) giveUp();
  }
}

function isListItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

/** `key: rest` with a plain or quoted key; undefined when the line is not a map entry. */
function splitKey(text: string): { key: string; rest: string } | undefined {
  let key: string;
  let after: number;
  const c = text[0];
  if (c === '"' || c === "'") {
    const q = quoted(text, 0);
    if (q === undefined) return undefined;
    key = q.value;
    after = q.end;
    while (text[after] === ' ') after++;
    if (text[after] !== ':') return undefined;
  } else {
    const m = /:(?: |$)/.exec(text);
    if (m === null) return undefined;
    key = text.slice(0, m.index).trimEnd();
    if (key === '' || /^[-?:,[\]{}#&*!|>'"%@`]/.test(key) || key.includes(' #') || key.includes('\t')) giveUp();
    if (plain(key) !== key) giveUp(); // a key that reads as null, a boolean or a number
    after = m.index;
  }
  const rest = text.slice(after + 1);
  if (rest !== '' && !rest.startsWith(' ')) return undefined;
  return { key, rest };
}

/** Only white space, or white space and a comment, follows. */
function nothingMore(text: string): boolean {
  return /^(?:[ \t]*|[ \t]+#.*)$/.test(text);
}

/**
 * The scalar or flow list written after `key:` or `- `, without its trailing comment; `written`
 * is false when nothing but white space or a comment follows.
 */
function inlineValue(rest: string): { written: boolean; value?: unknown; items?: number[] } {
  const lead = rest.length - rest.trimStart().length;
  const text = rest.trim();
  if (text === '' || text.startsWith('#')) return { written: false };
  const c = text[0];
  if (c === '"' || c === "'") {
    const q = quoted(text, 0);
    if (q === undefined || !nothingMore(text.slice(q.end))) giveUp();
    return { written: true, value: q!.value };
  }
  if (c === '[') {
    const items: number[] = [];
    const value = flowList(text, items);
    return { written: true, value, items: items.map((offset) => offset + lead) };
  }
  // A plain scalar ends where a comment starts (` #`); quotes inside it are ordinary text.
  const hash = /[ \t]#/.exec(text);
  return { written: true, value: plain((hash ? text.slice(0, hash.index) : text).trimEnd()) };
}

/** A one-line flow list of scalars, `[a, "b", 'c']`, maybe followed by a comment. */
function flowList(text: string, itemOffsets: number[]): unknown[] {
  const out: unknown[] = [];
  let i = 1;
  const skip = () => {
    while (text[i] === ' ') i++;
  };
  skip();
  if (text[i] === ']') {
    if (!nothingMore(text.slice(i + 1))) giveUp();
    return out;
  }
  for (;;) {
    skip();
    itemOffsets.push(i);
    const c = text[i];
    if (c === '"' || c === "'") {
      const q = quoted(text, i);
      if (q === undefined) giveUp();
      out.push(q!.value);
      i = q!.end;
    } else {
      const start = i;
      while (i < text.length && text[i] !== ',' && text[i] !== ']') i++;
      const item = text.slice(start, i).trim();
      if (item === '' || /[[{}#]/.test(item) || /^[-?:](?: |$)/.test(item) || item.includes(': ') || item.endsWith(':'))
        giveUp();
      out.push(plain(item));
    }
    skip();
    if (text[i] === ']') {
      if (!nothingMore(text.slice(i + 1))) giveUp();
      return out;
    }
    if (text[i] !== ',') giveUp();
    i++;
    skip();
    if (text[i] === ']') giveUp(); // a trailing comma: leave it to the full parser
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

/** A one-line quoted scalar starting at `start`; undefined when it does not close on the line. */
function quoted(text: string, start: number): { value: string; end: number } | undefined {
  const q = text[start];
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (q === "'") {
      if (c === "'") {
        if (text[i + 1] === "'") {
          value += "'";
          i += 2;
          continue;
        }
        return { value, end: i + 1 };
      }
    } else if (c === '"') return { value, end: i + 1 };
    else if (c === '\\') {
      const e = text[i + 1];
      if (e === undefined) return undefined;
      if (e === 'x' || e === 'u' || e === 'U') {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = text.slice(i + 2, i + 2 + len);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) giveUp();
        const cp = Number.parseInt(hex, 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) giveUp();
        value += String.fromCodePoint(cp);
        i += 2 + len;
        continue;
      }
      const esc = DOUBLE_QUOTE_ESCAPES[e];
      if (esc === undefined) giveUp();
      value += esc;
      i += 2;
      continue;
    }
    value += c;
    i++;
  }
  return undefined;
}

/** A plain scalar resolved by the YAML 1.2 core schema. */
function plain(text: string): unknown {
  if (/^[[\]{}&*!|>'"%@`,]/.test(text) || /^[-?:](?: |$)/.test(text) || text.includes(': ') || text.endsWith(':'))
    giveUp();
  if (text.includes('\t')) giveUp();
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
  const c = text.charCodeAt(0);
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
