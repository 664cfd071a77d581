// A YAML test file read one case at a time (issue 24: `hooks test` at 10,000 cases). The yaml
// package builds a whole document's syntax tree and then its node tree before the first value
// comes out: a 10,000-case file (690 KB) took ~95 MB at once, the peak of the whole run, and the
// heap V8 grew for it was then filled with each case's garbage. Here the file's top-level `cases:`
// list is cut into its items with the package's lexer (which knows quotes, block scalars and
// flow collections); every item is parsed alone and only its value and a small tree of key
// offsets are kept, so the peak is one case's tree whatever the file's length.
//
// Exactness over cleverness: the result is the same document and the same positions as one
// parse of the whole file. Anything this reader does not model (anchors and aliases, tags,
// directives, several documents, explicit keys, tabs as indentation, a `cases` that is not a
// block list) or any parse error in a piece gives undefined, and the caller parses the whole file
// as before, so a broken file gets exactly the diagnostics it always got.
import { isMap, isScalar, isSeq, Lexer, LineCounter, parseDocument, type Node } from 'yaml';
import type { Locator, PathSeg, Position } from '../declarations/source-file.js';

/** Where each key or item of one case is written: the locator of a whole-file parse, for one case. */
interface Located {
  /** map: first pair of each scalar key (the whole-file locator's `find`); seq: every item. */
  keys?: Map<string, Spot>;
  items?: Spot[];
}
interface Spot {
  /** Offset in the file; undefined when the parser gave the node no range. */
  at: number | undefined;
  node: Located | undefined;
}

export interface CaseItems {
  /** The document: the file's other keys, and `cases` as the list of every item's value. */
  document: unknown;
  locate: Locator;
}

/** The byte ranges of the items of a top-level block list `cases:`, or undefined (see above). */
export function caseItemRanges(text: string): { start: number; end: number }[] | undefined {
  type Phase = 'head' | 'afterKey' | 'items' | 'tail';
  let phase: Phase = 'head';
  let offset = 0;
  let lineStart = 0;
  let atLineStart = true;
  let indent = 0;
  let lineTokens: string[] = []; // the content tokens of the current line so far (head only)
  let seqIndent = -1;
  let flowDepth = 0;
  let documents = 0;
  let afterScalarMark = false;
  const starts: number[] = [];
  let end = text.length;

  for (const token of new Lexer().lex(text)) {
    // Synthetic tokens of the lexer, not in the text.
    if (token === '\x02') {
      if (++documents > 1) return undefined;
      continue;
    }
    if (token === '\x1f') {
      afterScalarMark = true;
      continue;
    }
    if (token === '\x18') {
      flowDepth = 0;
      continue;
    }
    const isScalarText = afterScalarMark;
    afterScalarMark = false;
    const at = offset;
    offset += token.length;

    if (atLineStart && /^[ ]+$/.test(token)) {
      indent = token.length;
      continue;
    }
    const isBreak = token === '\n' || token === '\r\n';
    const isComment = !isScalarText && token.startsWith('#');
    if (atLineStart && !isBreak && !isComment && !(token.startsWith(' ') || token.startsWith('\t'))) {
      // The first content token of a line.
      if (token.startsWith('\t')) return undefined;
      if (phase === 'afterKey') {
        if (token !== '-' || isScalarText) return undefined; // `cases:` holds no block list
        seqIndent = indent;
        phase = 'items';
        starts.push(lineStart);
      } else if (phase === 'items' && flowDepth === 0) {
        if (indent === seqIndent && token === '-' && !isScalarText) starts.push(lineStart);
        else if (indent <= seqIndent) {
          end = lineStart;
          phase = 'tail';
        }
      }
      atLineStart = false;
    } else if (atLineStart && token.startsWith('\t')) return undefined;

    if (!isScalarText) {
      if (/^[&*!%]/.test(token) || token === '---' || token === '...' || token === '?') return undefined;
      if (token === '{' || token === '[') flowDepth++;
      else if ((token === '}' || token === ']') && flowDepth > 0) flowDepth--;
    }
    if (phase === 'head' && !isBreak && !isComment && !/^[ ]+$/.test(token)) lineTokens.push(token);

    if (isBreak || token.endsWith('\n')) {
      if (phase === 'head' && indent === 0 && flowDepth === 0) {
        if (lineTokens.length === 2 && lineTokens[0] === 'cases' && lineTokens[1] === ':') phase = 'afterKey';
      }
      lineTokens = [];
      atLineStart = true;
      indent = 0;
      lineStart = at + token.length;
    }
  }
  if (offset !== text.length || phase === 'head' || phase === 'afterKey' || starts.length === 0) return undefined;
  return starts.map((start, i) => ({ start, end: i + 1 < starts.length ? starts[i + 1]! : end }));
}

/**
 * The document and locator of a YAML test file read one case at a time, or undefined when the
 * file must be parsed whole (see the top of this file).
 */
export function readCaseItems(text: string): CaseItems | undefined {
  const ranges = caseItemRanges(text);
  if (ranges === undefined) return undefined;
  const options = { prettyErrors: false, uniqueKeys: true } as const;

  // The file with the items blanked (same length, same lines): its other keys and `cases:` alone.
  const first = ranges[0]!.start;
  const last = ranges[ranges.length - 1]!.end;
  const head = parseDocument(text.slice(0, first) + blank(text.slice(first, last)) + text.slice(last), options);
  if (head.errors.length > 0 || !isMap(head.contents)) return undefined;
  const casesPair = head.contents.items.find((p) => isScalar(p.key) && p.key.value === 'cases');
  if (
    casesPair === undefined ||
    !(casesPair.value === null || (isScalar(casesPair.value) && casesPair.value.value === null))
  )
    return undefined;

  const values: unknown[] = [];
  const spots: Spot[] = [];
  for (const { start, end } of ranges) {
    const doc = parseDocument(text.slice(start, end), options);
    if (doc.errors.length > 0 || !isSeq(doc.contents) || doc.contents.items.length !== 1) return undefined;
    const item = doc.contents.items[0] as Node;
    values.push((doc.toJS() as unknown[])[0]);
    spots.push({ at: shift(item.range?.[0], start), node: located(item, start) });
  }
  const document = head.toJS() as Record<string, unknown>;
  document.cases = values;

  const lines = new LineCounter();
  lines.addNewLine(0);
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
  const toFile = (offset: number): Position => {
    const pos = lines.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  const headSpot: Spot = { at: undefined, node: located(head.contents, 0) };
  const locate: Locator = (path: readonly PathSeg[]) => {
    // `cases.<i>…` is in item i's tree; everything else (`cases` itself included) in the head's.
    const inItem = path.length >= 2 && path[0] === 'cases' && typeof path[1] === 'number';
    const spot = inItem ? walk(spots[path[1] as number], path.slice(2)) : walk(headSpot, path);
    return spot?.at === undefined ? undefined : toFile(spot.at);
  };
  return { document, locate };
}

/**
 * The text with every character but line ends made a space. Line by line, joined once: a global
 * `replace` per character left a rope of 1.7 million pieces (43 MB) for a 1.7 MB file.
 */
function blank(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.endsWith('\r') ? ' '.repeat(line.length - 1) + '\r' : ' '.repeat(line.length)))
    .join('\n');
}

function shift(at: number | undefined, by: number): number | undefined {
  return at === undefined ? undefined : at + by;
}

/** The keys and items of a node, with their offsets: what yamlLocator reads, without the nodes. */
function located(node: unknown, by: number): Located | undefined {
  if (isMap(node)) {
    const keys = new Map<string, Spot>();
    for (const pair of node.items) {
      if (!isScalar(pair.key)) continue;
      const key = String(pair.key.value);
      if (!keys.has(key)) keys.set(key, { at: shift(pair.key.range?.[0], by), node: located(pair.value, by) });
    }
    return { keys };
  }
  if (isSeq(node)) {
    return { items: node.items.map((item) => ({ at: shift((item as Node).range?.[0], by), node: located(item, by) })) };
  }
  return undefined;
}

function walk(spot: Spot | undefined, path: readonly PathSeg[]): Spot | undefined {
  let here = spot;
  for (const seg of path) {
    const node = here?.node;
    if (node?.keys) here = node.keys.get(String(seg));
    else if (node?.items && typeof seg === 'number') here = node.items[seg];
    else return undefined;
    if (here === undefined) return undefined;
  }
  return here;
}
