// Issue 24: 300 `hooks create` beside a writer that rewrites .claude/settings.json in place every
// 0–30 ms (as an editor or a script does) never replaces a newer external write.
//
// The writer numbers its writes: write n holds {"seq": n}, and hookctl keeps every other key, so
// a file hookctl wrote says which write it was computed from. A newer external write is LOST when
// the file settles on a content whose seq is lower than the writer's last complete write: before
// each write the writer reads the file, and a lower seq that does not become the writer's own
// (or a later) seq again within 3 s means hookctl renamed stale content over the newer write and
// left it there.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { claudeCliEnv, makeClaudeTree } from '../support/claude-tree.js';

const WRITER = `
const { readFileSync, writeFileSync, existsSync } = require('node:fs');
const [file, stopFile] = process.argv.slice(2);
const seqOf = () => { try { return JSON.parse(readFileSync(file, 'utf8')).seq; } catch { return undefined; } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  let n = 0;
  const lost = [];
  writeFileSync(file, JSON.stringify({ seq: n }) + '\\n');
  while (!existsSync(stopFile)) {
    await sleep(Math.floor(Math.random() * 31));
    const seen = seqOf();
    if (typeof seen === 'number' && seen < n) {
      const deadline = Date.now() + 3000;
      let now = seen;
      while (typeof now === 'number' && now < n && Date.now() < deadline) { await sleep(5); now = seqOf(); }
      if (typeof now === 'number' && now < n) lost.push({ write: n, replacedBy: now });
    }
    n++;
    writeFileSync(file, JSON.stringify({ seq: n }) + '\\n'); // in place: open(O_TRUNC), write
  }
  process.stdout.write(JSON.stringify({ writes: n, lost }));
})();
`;

describe('hooks create beside an in-place writer', () => {
  it(
    '100 creates against a writer changing settings.json every 0–30 ms: no newer external write lost',
    { timeout: 300_000 },
    async () => {
      const t = makeClaudeTree('hookctl-e2e-edit-race-');
      const env = claudeCliEnv(t, isolatedEnv({ home: t.home }));
      const settings = t.write('ws/.claude/settings.json', { seq: 0 });
      const writerFile = t.write('writer.cjs', WRITER);
      const stopFile = join(t.root, 'stop');
      const writer = spawn(process.execPath, [writerFile, settings, stopFile], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      writer.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      const done = new Promise<void>((resolve) => writer.on('close', () => resolve()));
      const codes: Record<string, number> = {};
      try {
        const one = async (i: number) => {
          const r = await runCli(
            ['hooks', 'create', '--event', 'Stop', '--command', `echo ${i}`, '--workspace', t.workspace],
            { env, cwd: t.root, timeoutMs: 60_000 },
          );
          const key =
            r.code === 0
              ? 'ok'
              : /hook_config_changed|changed while/.test(r.stderr)
                ? 'changed'
                : `exit ${r.code}: ${r.stderr.trim()}`;
          codes[key] = (codes[key] ?? 0) + 1;
          expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
        };
        // 300 rather than the 100: on the old code 100 lost a write in about half the runs.
        for (let i = 0; i < 300; i += 3) await Promise.all([one(i), one(i + 1), one(i + 2)]);
      } finally {
        writeFileSync(stopFile, '');
        await done;
      }
      const result = JSON.parse(out) as { writes: number; lost: unknown[] };
      expect(result.writes).toBeGreaterThan(100);
      expect(codes.ok ?? 0).toBeGreaterThan(0);
      expect(result.lost, JSON.stringify(codes)).toEqual([]);
    },
  );
});
