// Small tmpfs mounts for tests of what a full or read-only file system does to hookctl. Mounting
// needs root, as this project's machines and CI run; elsewhere `canMountTmpfs` is false and the
// tests that need one are skipped. Every mount is undone by `unmountTmpfs` (call it afterEach).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp.js';

const mounted: string[] = [];

/** Mounts a tmpfs of 16 KiB on `dir` (made if missing); `readOnly` mounts it read-only. */
export function mountTmpfs(dir: string, opts: { readOnly?: boolean } = {}): boolean {
  mkdirSync(dir, { recursive: true });
  const options = `${opts.readOnly ? 'ro,' : ''}size=16k,mode=0700`;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' });
    mounted.push(dir);
    return true;
  } catch {
    return false;
  }
}

export function unmountTmpfs(): void {
  for (const dir of mounted.splice(0)) execFileSync('umount', [dir], { stdio: 'ignore' });
}

export const canMountTmpfs = (() => {
  if (process.getuid?.() !== 0) return false;
  const ok = mountTmpfs(join(tempDir('hookctl-tmpfs-probe-'), 'probe'));
  unmountTmpfs();
  return ok;
})();
