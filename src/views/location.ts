import { displayPath } from '../display-path.js';

/** Items of one file that follow each other, as groups (the reports are sorted by file). */
export function runsByFile<T extends { file: string }>(items: readonly T[]): T[][] {
  const groups: T[][] = [];
  for (const item of items) {
    const last = groups.at(-1);
    if (last && last[0]!.file === item.file) last.push(item);
    else groups.push([item]);
  }
  return groups;
}

/** A declaration's source as every view shows it: `skill/user`, or the source alone. */
export function sourceLabel(d: { source: string; skill_source?: string | null }): string {
  return d.skill_source ? `${d.source}/${d.skill_source}` : d.source;
}

/** Lines for declaration errors that list and info skip (SPEC §6: shown valid, warn on the rest). */
export function skippedDeclarationWarnings(
  diagnostics: { severity: string; file: string; line: number; message: string }[],
  max = 10,
  /** The command shows them (list --all, info): say so instead of "not listed". */
  shown = false,
): string[] {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) return [];
  const lines = errors.slice(0, max).map((d) => `${displayPath(d.file)}:${d.line}: ${d.message}`);
  if (errors.length > max) lines.push(`... and ${errors.length - max} more`);
  lines.unshift(
    `${errors.length} declaration error${errors.length === 1 ? '' : 's'}: the hooks they affect ${shown ? 'are shown as invalid' : 'are left out (hooks list --all shows them)'} (see: hookctl hooks validate)`,
  );
  return lines;
}
