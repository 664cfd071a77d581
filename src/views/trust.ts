// Human and JSON output of `hooks trust`.
import type { Colour } from '../cli/colour.js';
import type { DialectTrustResult } from '../dialects/types.js';
import { displayPath } from '../display-path.js';
import { paintDiff } from './edit.js';

/** One line per hook: trusted now, or already; a dry run shows the diff instead. */
export function renderTrust(results: readonly DialectTrustResult[], colour: Colour): string {
  const lines: string[] = [];
  for (const r of results) {
    if (r.dry_run && r.diff) {
      lines.push(paintDiff(r.diff, colour).replace(/\n$/, ''));
      continue;
    }
    const where = displayPath(r.file);
    const suffix = r.dry_run ? ' (dry run)' : '';
    if (r.hooks.length === 0) lines.push(`no hook needs trust: ${where} unchanged${suffix}`);
    for (const h of r.hooks) {
      lines.push(
        h.changed
          ? `${r.dry_run ? 'would trust' : 'trusted'} ${h.name} in ${where} (${h.hash})`
          : `${h.name} is already trusted (${h.hash}): no change${suffix}`,
      );
    }
  }
  return lines.join('\n');
}

export function trustJson(results: readonly DialectTrustResult[]) {
  return {
    trusted: results.flatMap((r) => r.hooks.map((h) => ({ dialect: r.dialect, ...h, file: r.file }))),
    changed: results.some((r) => r.changed),
    ...(results.some((r) => r.dry_run) ? { dry_run: true, diff: results.map((r) => r.diff ?? '').join('') } : {}),
    targets: results.map((r) => ({
      dialect: r.dialect,
      file: r.file,
      changed: r.changed,
      ...(r.created ? { created: true } : {}),
    })),
  };
}
