// `hooks enable|disable` of a cosh hook (SPEC §6.1): its name in or out of the `disabled` list
// of $COSH_HOME/states/hooks.json, written under the file's lock, or the diff on a dry run.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFailures, writeTarget } from '../../edit/atomic-write.js';
import { withFileLock } from '../../edit/file-lock.js';
import { unifiedDiff } from '../../edit/unified-diff.js';
import { coshStatesFile } from '../../paths.js';
import { displayPath } from '../../display-path.js';
import type { ChangeRequest, FileChange } from '../types.js';
import { readStatesToChange, setCoshHookDisabled } from './states.js';

export async function setCoshHookSwitch(req: ChangeRequest, name: string, disabled: boolean): Promise<FileChange> {
  const file = coshStatesFile(req.loc);
  const states = await readStatesToChange(file);
  const listed = states.disabled.includes(name);
  if (listed === disabled) return { dialect: 'cosh', file, changed: false, ...(req.dryRun ? { diff: '' } : {}) };
  if (req.dryRun) {
    const before = await readFile(file, 'utf8').catch(() => '');
    const next = disabled ? [...states.disabled, name] : states.disabled.filter((n) => n !== name);
    const after = JSON.stringify({ ...(states.document ?? {}), disabled: next }, null, 2) + '\n';
    const shown = displayPath(file);
    return {
      dialect: 'cosh',
      file,
      changed: true,
      diff: unifiedDiff(before, after, { oldLabel: before === '' ? '/dev/null' : shown, newLabel: shown }),
    };
  }
  const changed = await writeFailures(file, async () => {
    // Locked where the text is: a linked states file has its lock beside the link's target.
    const target = await writeTarget(file);
    await mkdir(dirname(target), { recursive: true });
    return withFileLock(target, () => setCoshHookDisabled(req.loc, name, disabled));
  });
  return { dialect: 'cosh', file, changed };
}
