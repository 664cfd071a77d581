// A unified diff of two texts, line by line (`--dry-run` of the commands that change
// declarations). Common leading and trailing lines are set aside first, then Myers' O(ND)
// algorithm finds a shortest edit script for the rest; a very large difference falls back to
// "delete all, insert all" for the middle, which is still a correct diff.

export interface DiffOptions {
  /** Label of the old text (`/dev/null` for a file that does not exist yet). */
  oldLabel: string;
  newLabel: string;
  /** Lines of context around each change (3, as diff -u). */
  context?: number;
}

type Op = { kind: ' ' | '-' | '+'; line: string };

/** '' when the texts are equal. Lines keep their own line breaks; a last line without one is marked. */
export function unifiedDiff(oldText: string, newText: string, opts: DiffOptions): string {
  if (oldText === newText) return '';
  const ops = diffLines(splitLines(oldText), splitLines(newText));
  const context = opts.context ?? 3;
  let out = `--- ${opts.oldLabel}\n+++ ${opts.newLabel}\n`;
  for (const [from, to] of hunkRanges(ops, context)) out += formatHunk(ops, from, to);
  return out;
}

/** Lines with their line breaks; '' has no lines. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Beyond this many differences the middle is written as a block replacement. */
const MAX_EDIT_DISTANCE = 2000;

function diffLines(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middle = myers(a.slice(start, endA), b.slice(start, endB)) ?? [
    ...a.slice(start, endA).map((line): Op => ({ kind: '-', line })),
    ...b.slice(start, endB).map((line): Op => ({ kind: '+', line })),
  ];
  return [
    ...a.slice(0, start).map((line): Op => ({ kind: ' ', line })),
    ...middle,
    ...a.slice(endA).map((line): Op => ({ kind: ' ', line })),
  ];
}

/** Myers' shortest edit script; undefined when it needs more than MAX_EDIT_DISTANCE steps. */
function myers(a: string[], b: string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  outer: for (let d = 0; d <= Math.min(max, MAX_EDIT_DISTANCE); d++) {
    // Only diagonals -d-1..d+1 are read back for step d: keep that window (O(D²) memory in all).
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break outer;
      }
    }
  }
  if (found < 0) return undefined;

  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d >= 0; d--) {
    const window = trace[d]!;
    const at = (diagonal: number): number => window[diagonal + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: a[--x]! });
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: '+', line: b[--y]! });
      else ops.push({ kind: '-', line: a[--x]! });
    }
  }
  return ops.reverse();
}

/** [from, to) ranges of ops, each a hunk: changes closer than 2×context share one. */
function hunkRanges(ops: Op[], context: number): [number, number][] {
  const ranges: [number, number][] = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === ' ') {
      i++;
      continue;
    }
    const from = Math.max(0, i - context);
    let lastChange = i;
    let j = i + 1;
    while (j < ops.length) {
      if (ops[j]!.kind !== ' ') lastChange = j;
      else if (j - lastChange > 2 * context) break;
      j++;
    }
    const to = Math.min(ops.length, lastChange + context + 1);
    const prev = ranges.at(-1);
    if (prev && from <= prev[1]) prev[1] = to;
    else ranges.push([from, to]);
    i = lastChange + 1;
  }
  return ranges;
}

function formatHunk(ops: Op[], from: number, to: number): string {
  let oldBefore = 0;
  let newBefore = 0;
  for (let i = 0; i < from; i++) {
    if (ops[i]!.kind !== '+') oldBefore++;
    if (ops[i]!.kind !== '-') newBefore++;
  }
  let oldCount = 0;
  let newCount = 0;
  let body = '';
  for (let i = from; i < to; i++) {
    const { kind, line } = ops[i]!;
    if (kind !== '+') oldCount++;
    if (kind !== '-') newCount++;
    body += kind + (line.endsWith('\n') ? line : `${line}\n\\ No newline at end of file\n`);
  }
  return `@@ -${range(oldBefore, oldCount)} +${range(newBefore, newCount)} @@\n${body}`;
}

/** `start,count` as diff -u writes it: an empty range names the line before it. */
function range(before: number, count: number): string {
  if (count === 0) return `${before},0`;
  return count === 1 ? `${before + 1}` : `${before + 1},${count}`;
}
