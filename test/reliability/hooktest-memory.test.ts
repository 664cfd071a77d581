// Issue 24: `hooks test` over a 10,000-case file. The yaml package parsed the whole file into a
// syntax tree and a node tree at once (~95 MB of live heap for 690 KB of YAML), the peak of the
// run; the loader now reads the file one case at a time. Here V8's heap is held to 64 MB, far
// too little for the whole-file trees (~170 MB for this 1.7 MB file: the old loader ran out of
// memory, exit 134) and enough for the cases themselves (they fit in 40 MB on a quiet machine);
// a few of them are run (`--filter`), so the test is quick.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSandbox, removeSandboxes } from '../e2e/fire-support.js';
import { runCliMeasured } from './support.js';

const CASES = 10_000;
const KEPT_EVERY = 1_000;

afterAll(removeSandboxes);

describe.skipIf(!existsSync('/proc/self/status'))('hooks test over a 10,000-case file', () => {
  it('loads every case within a 64 MB heap and runs the selected ones', { timeout: 120_000 }, async () => {
    const box = makeSandbox();
    box.writeConfig([{ name: 'ok', event: 'tool.pre_call', mode: 'sync', command: '/bin/true' }]);
    const file = join(box.root, 'many.hooktest.yaml');
    const oneCase = (i: number) =>
      `  - name: ${i % KEPT_EVERY === 0 ? 'kept' : 'case'} ${i}\n` +
      `    event: tool.pre_call\n` +
      `    payload: { tool_id: fs.read, input: { path: "src/file-${i}.ts" } }\n` +
      `    expect: { verdict: completed, ran: [ok], exit_code: 0 }\n`;
    writeFileSync(file, `cases:\n${Array.from({ length: CASES }, (_, i) => oneCase(i)).join('')}`);

    const r = await runCliMeasured(
      ['hooks', 'test', file, '--filter', 'kept', '--format', 'json', '--workspace', box.workspace],
      { env: { ...box.env, NODE_OPTIONS: '--max-old-space-size=64' }, timeoutMs: 110_000 },
    );
    if (process.env.HOOKCTL_FIGURES)
      process.stdout.write(
        `[figures] hooks test, ${CASES} cases loaded: peak ${r.peakKb} KiB, ${Math.round(r.ms)} ms\n`,
      );
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { passed: number; failed: number; cases: { name: string }[] };
    expect(report.passed).toBe(CASES / KEPT_EVERY);
    expect(report.failed).toBe(0);
    expect(report.cases.map((c) => c.name)).toEqual(
      Array.from({ length: CASES / KEPT_EVERY }, (_, i) => `kept ${i * KEPT_EVERY}`),
    );
  });
});
