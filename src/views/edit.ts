// Human and JSON output of create/update/delete/enable/disable (SPEC §6.1).
import type { Colour } from '../cli/colour.js';
import type { ChangeResult as SharedChangeResult } from '../app/edit.js';
import type { DialectChangeResult, EditAction } from '../dialects/types.js';
import { dialectNamed } from '../dialects/registry.js';
import { displayPath } from '../display-path.js';

/** A change of any dialect: the shared edits' result, or a dialect's own (claude). */
export type ChangeResult = SharedChangeResult | (DialectChangeResult & { summary?: string });

const PAST: Record<EditAction, string> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  enable: 'enabled',
  disable: 'disabled',
};

/** One line for a person: what changed where, or that nothing had to. */
export function describeChange(result: ChangeResult): string {
  if ('summary' in result && result.summary) return result.summary;
  const q = JSON.stringify(result.name);
  const where = (t: ChangeResult['targets'][number]): string =>
    `${result.action === 'delete' ? 'from' : 'in'} ${displayPath(t.file)}`;
  const subject = (t: ChangeResult['targets'][number]): string =>
    `${dialectNamed(t.dialect)?.mutations?.noun ?? 'hook'} ${q}`;
  const changed = result.targets.filter((t) => t.changed);
  if (changed.length === 0) {
    const what =
      result.action === 'enable' || result.action === 'disable'
        ? `is already ${PAST[result.action]}`
        : 'already has these values';
    return `${result.targets.map(subject).join(' and ')} ${what} (${result.targets.map((t) => displayPath(t.file)).join(', ')}): no change`;
  }
  return `${PAST[result.action]} ${changed.map((t) => `${subject(t)} ${where(t)}`).join(' and ')}`;
}

/** A diff with + and - lines coloured. */
export function paintDiff(diff: string, colour: Colour): string {
  if (!colour.enabled) return diff;
  return diff
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return colour.paint('bold', line);
      if (line.startsWith('@@')) return colour.paint('accent', line);
      if (line.startsWith('+')) return colour.paint('ok', line);
      if (line.startsWith('-')) return colour.paint('error', line);
      return line;
    })
    .join('\n');
}

/** `-o json`: what changed, with the diff on a dry run. */
export function changeJson(result: ChangeResult) {
  return {
    action: result.action,
    name: result.name,
    scope: result.scope,
    file: result.file,
    changed: result.changed,
    ...(result.dry_run ? { dry_run: true, diff: result.diff } : {}),
    targets: result.targets,
  };
}

/** The diff of a dry run (or that nothing would change), else one line of what changed. */
export function renderChange(result: ChangeResult, colour: Colour): string {
  if (!result.dry_run) return describeChange(result);
  if (result.diff) return paintDiff(result.diff, colour);
  return `${describeChange({ ...result, targets: result.targets.map((t) => ({ ...t, changed: false })) })} (dry run)`;
}
