// A ledger on a full file system (issue 24): the hooks have run by the time their records are
// written, so the verdict and its exit code come first, a warning says what was not recorded,
// and no half record is ever left in the log. The full file system is a 16 KiB tmpfs, which
// needs root to mount (as this project's machines and CI run); elsewhere the file is skipped.
import { existsSync, mkdirSync, readFileSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canMountTmpfs, mountTmpfs, unmountTmpfs } from '../support/tmpfs.js';
import { bash, cmd, group, sandbox } from './claude-support.js';

afterEach(unmountTmpfs);

/** Fills the file system at `dir` with a filler file until not one more byte fits. */
function fill(dir: string): void {
  const { bavail, bsize } = statfsSync(dir);
  try {
    writeFileSync(join(dir, 'filler'), Buffer.alloc(Number(bavail) * Number(bsize) + 4096));
  } catch {
    // ENOSPC: what fitted stays
  }
}

describe.skipIf(!canMountTmpfs)('a full disk at the ledger', () => {
  function project() {
    const box = sandbox();
    const state = join(box.root, 'state');
    expect(mountTmpfs(state)).toBe(true);
    box.script('deny.sh', `echo ran >> "${box.out}/ran"; echo "no rm" >&2; exit 2`);
    box.settings({ PreToolUse: [group([cmd(join(box.root, 'bin', 'deny.sh'))], 'Bash')] });
    return { box, log: join(state, 'claude', 'sessions', 's1', 'hook-runs.jsonl'), state };
  }

  it('no room at all: the deny verdict and its exit 1 stand, the hook ran, a warning names what was not recorded', async () => {
    const { box, state } = project();
    fill(state);
    const r = await box.fire('PreToolUse', bash('rm -rf /'));
    expect(r.code).toBe(1); // deny
    expect(r.json.verdict).toBe('deny');
    expect(readFileSync(join(box.out, 'ran'), 'utf8')).toBe('ran\n');
    expect(r.stderr).toMatch(/1 run record was not recorded: cannot write .*hook-runs\.jsonl: ENOSPC/);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('room for part of a record: the part is taken back, the log keeps only whole lines', async () => {
    const { box, log, state } = project();
    // A log whose last page is nearly full, then a full file system: the next record's first
    // bytes fit in that page and the rest does not.
    mkdirSync(join(log, '..'), { recursive: true });
    const earlier = JSON.stringify({ hook_name: 'earlier', pad: 'x'.repeat(3900) }) + '\n';
    writeFileSync(log, earlier);
    fill(state);
    const r = await box.fire('PreToolUse', bash('rm -rf /'), '--session', 's1');
    expect(r.code).toBe(1); // deny
    expect(r.json.verdict).toBe('deny');
    expect(r.stderr).toMatch(/not recorded: cannot write .*: ENOSPC/);
    expect(readFileSync(log, 'utf8')).toBe(earlier);
    expect(existsSync(join(box.out, 'ran'))).toBe(true);
  });
});
