// A port of Go's `path.Match` (package path, Go 1.19+), the wildcard language of compozy matcher
// fields (SPEC §2.2). Structure and names follow Go's src/path/match.go so the two can be read side
// by side; Go slices strings, this port walks indices into the pattern and the name instead.
//
// Characters are Unicode code points (SPEC §2.2). Go walks bytes and decodes runes only for `?` and
// `[...]`; for well-formed text both give the same answers, with one deliberate difference: Go's
// `*` retries the rest of the pattern after every *byte*, so `?` can land inside a multi-byte
// character (Go says `Match("*??", "☺")` is true). Here `*` advances by whole code points.
//
// A lone UTF-16 surrogate (possible in a JS string, impossible in Go's UTF-8 text after JSON/TOML
// decoding) is read as U+FFFD, which is what Go's decoders turn it into.

/** Go's `path.ErrBadPattern`. */
export class BadPatternError extends Error {
  constructor() {
    super('syntax error in pattern');
    this.name = 'BadPatternError';
  }
}

const STAR = 0x2a; // *
const QUESTION = 0x3f; // ?
const BACKSLASH = 0x5c; // \
const LBRACKET = 0x5b; // [
const RBRACKET = 0x5d; // ]
const CARET = 0x5e; // ^
const HYPHEN = 0x2d; // -
const SLASH = 0x2f; // /
const REPLACEMENT_CHARACTER = 0xfffd;

/** Returned instead of throwing inside the matcher, so validation needs no try/catch. */
const BAD_PATTERN = -2;
/** matchChunk: the chunk did not match (and the chunk is well formed). */
const NO_MATCH = -1;

const WILDCARD_CHARS = /[*?[\\]/;

/** True when the pattern uses any of `*?[\`; otherwise it can only match itself exactly. */
export function hasWildcard(pattern: string): boolean {
  return WILDCARD_CHARS.test(pattern);
}

/**
 * Go's `path.Match(pattern, name)`: whether name matches the whole pattern.
 * Throws BadPatternError when the pattern is malformed, whatever the name.
 */
export function pathMatch(pattern: string, name: string): boolean {
  const result = match(pattern, name);
  if (result === BAD_PATTERN) throw new BadPatternError();
  return result;
}

/**
 * Whether Go's `path.Match` accepts the pattern. Since Go 1.19 Match checks the whole pattern
 * before it returns false, and a chunk's syntax check never depends on the name, so a pattern is
 * malformed for one name exactly when it is malformed for "" (the check Go users write).
 */
export function isValidPattern(pattern: string): boolean {
  return match(pattern, '') !== BAD_PATTERN;
}

/** Go's Match, returning BAD_PATTERN instead of ErrBadPattern. */
function match(pattern: string, name: string): boolean | typeof BAD_PATTERN {
  let p = 0; // start of the unread pattern
  let n = 0; // start of the unmatched name
  Pattern: while (p < pattern.length) {
    // scanChunk: a run of stars, then a star-free chunk [chunkStart, chunkEnd).
    let star = false;
    while (p < pattern.length && pattern.charCodeAt(p) === STAR) {
      p++;
      star = true;
    }
    const chunkStart = p;
    const chunkEnd = scanChunkEnd(pattern, p);
    p = chunkEnd;
    const lastChunk = p === pattern.length;

    if (star && chunkStart === chunkEnd) {
      // Trailing * matches the rest of the name unless it has a /.
      return name.indexOf('/', n) < 0;
    }
    // Look for a match at the current position. If this is the last chunk, the name must be
    // exhausted too, or a later position reached through the star could still match.
    const rest = matchChunk(pattern, chunkStart, chunkEnd, name, n);
    if (rest >= 0 && (rest === name.length || !lastChunk)) {
      n = rest;
      continue;
    }
    if (rest === BAD_PATTERN) return BAD_PATTERN;
    if (star) {
      // Retry one character further each time; the star cannot swallow a /.
      let i = n;
      while (i < name.length && name.charCodeAt(i) !== SLASH) {
        i += codePointWidth(name, i);
        const restAfterSkip = matchChunk(pattern, chunkStart, chunkEnd, name, i);
        if (restAfterSkip >= 0) {
          if (lastChunk && restAfterSkip < name.length) continue;
          n = restAfterSkip;
          continue Pattern;
        }
        if (restAfterSkip === BAD_PATTERN) return BAD_PATTERN;
      }
    }
    // Before returning false, check that the remainder of the pattern is well formed.
    while (p < pattern.length) {
      while (p < pattern.length && pattern.charCodeAt(p) === STAR) p++;
      const start = p;
      p = scanChunkEnd(pattern, p);
      if (matchChunk(pattern, start, p, '', 0) === BAD_PATTERN) return BAD_PATTERN;
    }
    return false;
  }
  return n === name.length;
}

/** Go's scanChunk, after the leading stars: where the chunk starting at `from` ends. */
function scanChunkEnd(pattern: string, from: number): number {
  let inRange = false;
  for (let i = from; i < pattern.length; i++) {
    switch (pattern.charCodeAt(i)) {
      case BACKSLASH:
        // A trailing backslash is reported by matchChunk.
        if (i + 1 < pattern.length) i++;
        break;
      case LBRACKET:
        inRange = true;
        break;
      case RBRACKET:
        inRange = false;
        break;
      case STAR:
        if (!inRange) return i;
        break;
    }
  }
  return pattern.length;
}

/**
 * Go's matchChunk: whether pattern[chunkStart, chunkEnd) (literals, classes and `?`, no star)
 * matches name at `from`. Returns the index in name after the match, NO_MATCH, or BAD_PATTERN.
 * After a mismatch it keeps parsing the chunk (without reading name) so that a malformed chunk
 * is always reported.
 */
function matchChunk(pattern: string, chunkStart: number, chunkEnd: number, name: string, from: number): number {
  let failed = false;
  let c = chunkStart;
  let s = from;
  while (c < chunkEnd) {
    if (!failed && s >= name.length) failed = true;
    const ch = pattern.charCodeAt(c);
    if (ch === LBRACKET) {
      // Character class.
      let r = -1;
      if (!failed) {
        r = codePointAt(name, s);
        s += widthOf(r);
      }
      c++;
      let negated = false;
      if (c < chunkEnd && pattern.charCodeAt(c) === CARET) {
        negated = true;
        c++;
      }
      let matched = false;
      let ranges = 0;
      for (;;) {
        if (c < chunkEnd && pattern.charCodeAt(c) === RBRACKET && ranges > 0) {
          c++;
          break;
        }
        const lo = classChar(pattern, c, chunkEnd);
        if (lo === BAD_PATTERN) return BAD_PATTERN;
        c += classCharLength(pattern, c, lo);
        let hi = lo;
        // classChar guarantees the chunk goes on after lo.
        if (pattern.charCodeAt(c) === HYPHEN) {
          hi = classChar(pattern, c + 1, chunkEnd);
          if (hi === BAD_PATTERN) return BAD_PATTERN;
          c += 1 + classCharLength(pattern, c + 1, hi);
        }
        if (lo <= r && r <= hi) matched = true;
        ranges++;
      }
      if (matched === negated) failed = true;
    } else if (ch === QUESTION) {
      if (!failed) {
        if (name.charCodeAt(s) === SLASH) failed = true;
        s += codePointWidth(name, s);
      }
      c++;
    } else {
      if (ch === BACKSLASH) {
        c++;
        if (c >= chunkEnd) return BAD_PATTERN;
      }
      const literal = codePointAt(pattern, c);
      if (!failed) {
        const actual = codePointAt(name, s);
        if (literal !== actual) failed = true;
        s += widthOf(actual);
      }
      c += widthOf(literal);
    }
  }
  return failed ? NO_MATCH : s;
}

/**
 * Go's getEsc: the possibly escaped character of a class at `at`, or BAD_PATTERN. A class
 * character may not be `-` or `]` unescaped, and the chunk must go on after it (a class that
 * runs to the end of the chunk is unterminated).
 */
function classChar(pattern: string, at: number, chunkEnd: number): number {
  if (at >= chunkEnd) return BAD_PATTERN;
  const ch = pattern.charCodeAt(at);
  if (ch === HYPHEN || ch === RBRACKET) return BAD_PATTERN;
  let i = at;
  if (ch === BACKSLASH) {
    i++;
    if (i >= chunkEnd) return BAD_PATTERN;
  }
  const r = codePointAt(pattern, i);
  if (i + widthOf(r) >= chunkEnd) return BAD_PATTERN;
  return r;
}

/** How many UTF-16 units classChar consumed to read `r` at `at`. */
function classCharLength(pattern: string, at: number, r: number): number {
  return (pattern.charCodeAt(at) === BACKSLASH ? 1 : 0) + widthOf(r);
}

/** The code point at index i, a lone surrogate read as U+FFFD. */
function codePointAt(text: string, i: number): number {
  const cp = text.codePointAt(i) ?? REPLACEMENT_CHARACTER;
  return cp >= 0xd800 && cp <= 0xdfff ? REPLACEMENT_CHARACTER : cp;
}

/** UTF-16 units taken by a code point as returned by codePointAt. */
function widthOf(cp: number): number {
  return cp > 0xffff ? 2 : 1;
}

function codePointWidth(text: string, i: number): number {
  return widthOf(codePointAt(text, i));
}
