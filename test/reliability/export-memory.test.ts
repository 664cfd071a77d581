// Issue 24: `runs --export otlp` streams the ledger: records are read a slice at a time and sent
// in batches as they fill, so the peak resident set does not grow with the log (1 M records had
// peaked at 1.94 GB). 200,000 records here, against a collector that answers 200 to everything,
// with V8's heap held to 64 MB: the live memory is bounded, whatever V8 would let garbage grow to.
import { createWriteStream, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitHook, makeSandbox, removeSandboxes } from '../e2e/fire-support.js';
import { runCliMeasured } from './support.js';

const RECORDS = Number(process.env.HOOKCTL_EXPORT_RECORDS ?? 200_000);
const PEAK_LIMIT_KB = 150_000_000 / 1024;

afterAll(removeSandboxes);

describe.skipIf(!existsSync('/proc/self/status'))('runs --export over 200,000 records', () => {
  let server: Server;
  let url: string;
  const requests: Record<string, number> = {};
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests[req.url ?? ''] = (requests[req.url ?? ''] ?? 0) + 1;
        res.writeHead(200, { 'content-type': 'application/x-protobuf' });
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it(
    'sends every span and log record in batches, within a 64 MB heap, under 150 MB of RSS',
    { timeout: 300_000 },
    async () => {
      const box = makeSandbox();
      box.writeConfig([emitHook(box, 'quick', 'tool.pre_call', '{}')]);
      const fired = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'big', '-o', 'json'], {
        input: '{"tool_id":"t"}',
      });
      expect(fired.code).toBe(0);
      const template = box.records('big')[0]!;
      const out = createWriteStream(box.logFile('big'));
      for (let i = 0; i < RECORDS; i++) {
        const line = JSON.stringify({ ...template, run_id: `r${i}`, dispatch_id: `d${Math.floor(i / 4)}` }) + '\n';
        if (!out.write(line)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      const r = await runCliMeasured(
        ['hooks', 'runs', '--session', 'big', '--export', 'otlp', '--endpoint', url, '--workspace', box.workspace],
        // A 64 MB heap: enough for a slice and a batch, far from enough for the records (the old code held them all).
        { env: { ...box.env, NODE_OPTIONS: '--max-old-space-size=64' }, timeoutMs: 280_000 },
      );
      if (process.env.HOOKCTL_FIGURES)
        process.stdout.write(`[figures] export ${RECORDS}: peak ${r.peakKb} KiB, ${Math.round(r.ms)} ms\n`);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`exported ${RECORDS} runs of ${RECORDS / 4} dispatches`));
      expect(requests['/v1/traces']).toBe(Math.ceil((RECORDS + RECORDS / 4) / 512));
      expect(requests['/v1/logs']).toBe(Math.ceil(RECORDS / 512));
      expect(r.peakKb).toBeGreaterThan(0);
      expect(r.peakKb).toBeLessThan(PEAK_LIMIT_KB);
    },
  );
});
