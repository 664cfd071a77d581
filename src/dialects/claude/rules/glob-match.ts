// The globs of `if` rules (claude.md §4.2), matched in time linear in the text: a pattern is
// compiled to a list of steps, and a text is run through all of them at once (a Thompson NFA:
// the set of steps reached so far, advanced one character at a time), so each character costs at
// most one look at each step, whatever the pattern. A regular expression built from the glob, as
// before, backtracks: `Bash(git *-*-*-*-*-*-X)` against a long argument ran past 60 s. The
// libraries that match globs (picomatch, minimatch) compile to such regular expressions too
// (docs/DESIGN.md "if globs", docs/RELIABILITY.md for the figures).

/**
 * What one match may cost, in steps × characters of text (~0.1 s here at the bound): past it, a
 * rule fails open instead of matching (docs/RELIABILITY.md "if rules").
 */
export const MATCH_WORK_BOUND = 20_000_000;

/** Whether matching `glob` against `chars` characters of text stays within MATCH_WORK_BOUND. */
export function withinMatchBound(glob: CompiledGlob, chars: number): boolean {
  return (glob.steps.length + 1) * chars <= MATCH_WORK_BOUND;
}

/** One step of a compiled glob. */
export type GlobStep =
  | { kind: 'char'; char: string }
  /** `?` of a path glob: one character other than `/`. */
  | { kind: 'one' }
  /** `[...]`: one character (never `/`) in, or with `!`/`^` not in, the listed characters and ranges. */
  | { kind: 'class'; negated: boolean; chars: string; ranges: [number, number][] }
  /** `*` of a path glob: a run of characters without `/`, none included. */
  | { kind: 'segment' }
  /** `*` of a Bash pattern, `**` of a path glob: any run of characters, none included. */
  | { kind: 'any' }
  /**
   * Reads nothing: goes on to the next step, or passes over the `skip` steps after it. A `**`
   * and `/` at a segment start compile to this, `any` and `/`: no folder, or any run of characters
   * ending in `/`.
   */
  | { kind: 'optional'; skip: number };

export interface CompiledGlob {
  steps: GlobStep[];
}

/** A pattern that cannot compile (a `[z-a]` range out of order), with what is wrong. */
export class GlobError extends Error {}

/** A Bash pattern: `*` is any run of characters; every other character stands for itself. */
export function compileBashGlob(pattern: string): CompiledGlob {
  const steps: GlobStep[] = [];
  for (const char of pattern) steps.push(char === '*' ? { kind: 'any' } : { kind: 'char', char });
  return { steps };
}

/**
 * A gitignore-style path glob over a `/`-separated relative path: `*` and `?` stay within a
 * segment, `**` spans segments (`**` and `/` at a segment start: any number of leading
 * folders, none included), `[...]` is a class, `\x` is `x`. An unclosed `[` is itself. Throws GlobError
 * for a range out of order.
 */
export function compilePathGlob(glob: string): CompiledGlob {
  const chars = [...glob];
  const steps: GlobStep[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '*') {
      if (chars[i + 1] === '*') {
        const atSegmentStart = i === 0 || chars[i - 1] === '/';
        i++;
        if (atSegmentStart && chars[i + 1] === '/') {
          steps.push({ kind: 'optional', skip: 2 }, { kind: 'any' }, { kind: 'char', char: '/' });
          i++;
        } else {
          steps.push({ kind: 'any' });
        }
      } else {
        steps.push({ kind: 'segment' });
      }
    } else if (c === '?') {
      steps.push({ kind: 'one' });
    } else if (c === '[') {
      const cls = readClass(chars, i);
      if (cls === undefined) {
        steps.push({ kind: 'char', char: '[' });
      } else {
        steps.push(cls.step);
        i = cls.end;
      }
    } else if (c === '\\' && i + 1 < chars.length) {
      steps.push({ kind: 'char', char: chars[++i]! });
    } else {
      steps.push({ kind: 'char', char: c });
    }
  }
  return { steps };
}

/** The class opening at `chars[start]` and the index of its `]`; undefined when it never closes. */
function readClass(chars: string[], start: number): { step: GlobStep; end: number } | undefined {
  let i = start + 1;
  const negated = chars[i] === '!' || chars[i] === '^';
  if (negated) i++;
  const members: string[] = [];
  const ranges: [number, number][] = [];
  const first = i;
  for (; i < chars.length; i++) {
    let c = chars[i]!;
    if (c === ']' && i > first) {
      return { step: { kind: 'class', negated, chars: members.join(''), ranges }, end: i };
    }
    if (c === '\\' && i + 1 < chars.length) c = chars[++i]!;
    if (chars[i + 1] === '-' && i + 2 < chars.length && chars[i + 2] !== ']') {
      let hi = chars[i + 2]!;
      let next = i + 2;
      if (hi === '\\' && next + 1 < chars.length) hi = chars[++next]!;
      const lo = c.codePointAt(0)!;
      const top = hi.codePointAt(0)!;
      if (lo > top) throw new GlobError(`range ${c}-${hi} is out of order`);
      ranges.push([lo, top]);
      i = next;
    } else {
      members.push(c);
    }
  }
  return undefined;
}

function inClass(step: Extract<GlobStep, { kind: 'class' }>, code: number): boolean {
  if (code === SLASH) return false;
  const listed =
    step.chars.includes(String.fromCodePoint(code)) || step.ranges.some(([lo, hi]) => code >= lo && code <= hi);
  return listed !== step.negated;
}

/**
 * Whether the glob matches the whole text. O(text length × steps), with no backtracking: every
 * character advances the set of steps reached, which holds each step at most once.
 */
export function globMatches(glob: CompiledGlob, text: string): boolean {
  return run(glob, text, false);
}

/**
 * Whether the glob matches a `/`-separated path or one of its leading folders (`src` of
 * `src/a/b.ts`), in the same one pass over the path.
 */
export function globMatchesPathOrFolder(glob: CompiledGlob, path: string): boolean {
  return run(glob, path, true);
}

const CHAR = 0;
const ONE = 1;
const CLASS = 2;
const SEGMENT = 3;
const ANY = 4;
const OPTIONAL = 5;
const SLASH = 0x2f;

/**
 * The simulation: the steps reached so far, as a list and as marks (a step is in the list of
 * character k when its mark is k), so each character costs a look at each step reached, never
 * more, and no array is cleared between characters.
 */
function run(glob: CompiledGlob, text: string, orFolder: boolean): boolean {
  const { steps } = glob;
  const n = steps.length; // step n: the whole glob matched
  const kind = new Uint8Array(n);
  const code = new Int32Array(n); // CHAR: the character; OPTIONAL: how many steps it passes over
  for (let i = 0; i < n; i++) {
    const step = steps[i]!;
    if (step.kind === 'char') {
      kind[i] = CHAR;
      code[i] = step.char.codePointAt(0)!;
    } else if (step.kind === 'one') kind[i] = ONE;
    else if (step.kind === 'class') kind[i] = CLASS;
    else if (step.kind === 'segment') kind[i] = SEGMENT;
    else if (step.kind === 'any') kind[i] = ANY;
    else {
      kind[i] = OPTIONAL;
      code[i] = step.skip;
    }
  }
  const mark = new Int32Array(n + 1).fill(-1);
  let current = new Int32Array(n + 1);
  let next = new Int32Array(n + 1);
  const pending = new Int32Array(2 * n + 4); // at most 1 + 2 pushes per step reached
  /** Adds step `from` to the list of character `k`, and every step reached from it without reading. */
  const reach = (list: Int32Array, count: number, from: number, k: number): number => {
    let top = 0;
    pending[top++] = from;
    while (top > 0) {
      const i = pending[--top]!;
      if (mark[i] === k) continue;
      mark[i] = k;
      list[count++] = i;
      if (i === n) continue;
      const kd = kind[i]!;
      if (kd === SEGMENT || kd === ANY) pending[top++] = i + 1;
      else if (kd === OPTIONAL) {
        pending[top++] = i + 1 + code[i]!;
        pending[top++] = i + 1;
      }
    }
    return count;
  };
  let k = 0;
  let currentCount = reach(current, 0, 0, k);
  for (let at = 0; at < text.length;) {
    const c = text.codePointAt(at)!;
    at += c > 0xffff ? 2 : 1;
    if (orFolder && c === SLASH && mark[n] === k) return true; // what was read is a folder
    k++;
    let nextCount = 0;
    for (let j = 0; j < currentCount; j++) {
      const i = current[j]!;
      if (i === n) continue;
      switch (kind[i]) {
        case CHAR:
          if (c === code[i]) nextCount = reach(next, nextCount, i + 1, k);
          break;
        case ONE:
          if (c !== SLASH) nextCount = reach(next, nextCount, i + 1, k);
          break;
        case CLASS:
          if (inClass(steps[i] as Extract<GlobStep, { kind: 'class' }>, c))
            nextCount = reach(next, nextCount, i + 1, k);
          break;
        case SEGMENT:
          if (c !== SLASH) nextCount = reach(next, nextCount, i, k);
          break;
        case ANY:
          nextCount = reach(next, nextCount, i, k);
          break;
        // OPTIONAL reads nothing: the steps after it were reached with it
      }
    }
    if (nextCount === 0) return false;
    [current, next] = [next, current];
    currentCount = nextCount;
  }
  return mark[n] === k;
}
