// vitest globalSetup: the whole run gets a temp folder of its own (TMPDIR, inherited by the test
// workers and every CLI and hook they start), and the run fails when a test left anything in it.
// A folder of its own, not a before/after listing of /tmp: other runs on the machine make
// hookctl-* folders there too. The CLI's compile cache is allowed to stay until the end: it is
// made to outlive runs (src/cli/compile-cache.ts).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'hookctl-test-run-'));
  process.env.TMPDIR = dir;
  return () => {
    const left = readdirSync(dir).filter((name) => !name.startsWith('hookctl-compile-cache-'));
    rmSync(dir, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (left.length > 0) {
      const shown = left.slice(0, 10).join(', ') + (left.length > 10 ? `, … (${left.length - 10} more)` : '');
      // vitest only logs an error thrown here and still exits 0: set the exit code as well.
      process.exitCode = 1;
      throw new Error(`tests left ${left.length} entries in the temp folder: ${shown}`);
    }
  };
}
