// A unified diff of two texts, line by line (`--dry-run` of the commands that change
// declarations), as GNU `diff -u` writes it: the `diff` package's createTwoFilesPatch with file
// headers only, its hunk headers then written as GNU writes a one-line range (`-5`, not `-5,1`).
// The package's work is bounded (maxEditLength); beyond it, the part between the common leading
// and trailing lines is written as one block replacement, which is still a correct diff.
// A label with a control or non-ASCII character, `"` or `\` is C-quoted by the package (as git
// quotes it), so a patch tool can still read the header. The package is bundled into the editing
// commands' chunk only (scripts/build.mjs): no read command loads it.
import { createTwoFilesPatch, FILE_HEADERS_ONLY, formatPatch, type StructuredPatchHunk } from 'diff';

export interface DiffOptions {
  /** Label of the old text (`/dev/null` for a file that does not exist yet). */
  oldLabel: string;
  newLabel: string;
  /** Lines of context around each change (3, as diff -u). */
  context?: number;
}

/**
 * Beyond this many inserted and deleted lines, the package gives up and the block replacement
 * is written. Its work grows with the square of the edit length: 1,000 took about 0.1 s on the
 * 2-core bench machine, where an unbounded diff of 3,144 changed lines took 2 s.
 */
export const MAX_EDIT_LENGTH = 1000;

/** '' when the texts are equal. Lines keep their own line breaks; a last line without one is marked. */
export function unifiedDiff(oldText: string, newText: string, opts: DiffOptions): string {
  if (oldText === newText) return '';
  const context = opts.context ?? 3;
  const patch =
    createTwoFilesPatch(opts.oldLabel, opts.newLabel, oldText, newText, undefined, undefined, {
      context,
      headerOptions: FILE_HEADERS_ONLY,
      maxEditLength: MAX_EDIT_LENGTH,
    }) ??
    formatPatch(
      {
        oldFileName: opts.oldLabel,
        newFileName: opts.newLabel,
        oldHeader: undefined,
        newHeader: undefined,
        hunks: [blockReplacement(splitLines(oldText), splitLines(newText), context)],
      },
      FILE_HEADERS_ONLY,
    );
  return patch.replace(HUNK_HEADER, (_all, oldStart: string, oldCount: string, newStart: string, newCount: string) => {
    const range = (start: string, count: string) => (count === '1' ? start : `${start},${count}`);
    return `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`;
  });
}

const HUNK_HEADER = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/gm;

/** Lines with their line breaks; '' has no lines. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** One hunk: the lines between the common leading and trailing ones, all removed, then all added. */
function blockReplacement(a: string[], b: string[], context: number): StructuredPatchHunk {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const from = Math.max(0, start - context);
  const toA = Math.min(a.length, endA + context);
  const toB = endB + (toA - endA);
  const lines: string[] = [];
  const add = (mark: string, line: string) => {
    if (line.endsWith('\n')) lines.push(mark + line.slice(0, -1));
    else lines.push(mark + line, '\\ No newline at end of file');
  };
  for (const line of a.slice(from, start)) add(' ', line);
  for (const line of a.slice(start, endA)) add('-', line);
  for (const line of b.slice(start, endB)) add('+', line);
  for (const line of a.slice(endA, toA)) add(' ', line);
  // (formatPatch writes an empty range as the line before it, as diff -u does.)
  return { oldStart: from + 1, oldLines: toA - from, newStart: from + 1, newLines: toB - from, lines };
}
