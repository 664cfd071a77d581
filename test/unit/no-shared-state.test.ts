// The parallel project runs its files in shared worker processes (vitest.config.ts: isolate
// false), which is safe only while no test changes what other files see: module mocks, stubbed
// environment or globals, the working folder, Node's module loader. This scans the test files;
// a file that must do so is listed in ISOLATED (vitest.config.ts) and runs in its own process.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../../vitest.config.js';

const root = join(__dirname, '..', '..');
const SHARED_STATE =
  /\bvi\.(mock|doMock|stubEnv|stubGlobal|spyOn|useFakeTimers)\(|process\.chdir\(|\bprocess\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|Module\._load\s*=|\b(deferUnusedOclifModules|enableCompileCache)\(\)/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('test files share worker processes safely', () => {
  it('the pattern finds each kind of change (so the check below can fail)', () => {
    for (const line of [
      "vi.mock('node:fs')",
      'process.env.HOME = "/x"',
      "process.env['A'] = 'b'",
      'delete process.env.PATH',
      'process.chdir(dir)',
      'Module._load = fake',
      'deferUnusedOclifModules()',
    ])
      expect(SHARED_STATE.test(line), line).toBe(true);
    expect(SHARED_STATE.test('if (process.env.HOME === "/x") {}')).toBe(false);
    expect(SHARED_STATE.test('`require(x).enableCompileCache();`')).toBe(true);
  });

  it('no test file changes shared state in its own process', () => {
    const offenders = testFiles(join(root, 'test'))
      .filter((f) => !f.endsWith('no-shared-state.test.ts') && !ISOLATED.includes(relative(root, f)))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${relative(root, f)}:${i + 1}`, line }))
          // A line that builds a script for a child process (a string) changes nothing here.
          .filter(({ line }) => SHARED_STATE.test(line) && !/^\s*[`'"]|\$\{JSON\.stringify/.test(line)),
      );
    expect(offenders).toEqual([]);
  });
});
