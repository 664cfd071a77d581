// Temporary folders for tests. `tempDir` makes one under the OS temp folder and remembers it;
// test/support/cleanup.ts removes every remembered folder after each test file, so a helper that
// makes folders for its caller (isolatedEnv, makeBox) needs no cleanup call at every use.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}
