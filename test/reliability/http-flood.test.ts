// Issue 24: an http hook whose server answers 1 GiB is held to the bound command hooks meet:
// the body is cut at 1 MiB, the connection dropped there, the answer is a non-blocking error,
// and the peak resident set of the hookctl process stays under 100 MB (VmHWM from /proc).
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { group, sandbox } from '../e2e/claude-support.js';
import { runCliMeasured } from './support.js';

const GIB = 1024 * 1024 * 1024;
const PEAK_LIMIT_KB = 100_000_000 / 1024;

describe.skipIf(!existsSync('/proc/self/status'))('an http hook answering 1 GiB', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const block = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < GIB) {
            sent += block.length;
            if (!res.write(block)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"decision":"block","reason":"cut"}');
        pump();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('is cut at 1 MiB as a non-blocking error, and hookctl stays under 100 MB', { timeout: 180_000 }, async () => {
    const sb = sandbox();
    sb.settings({ UserPromptSubmit: [group([{ type: 'http', url: `${base}/flood`, timeout: 150 }])] });
    const r = await runCliMeasured(
      ['hooks', 'fire', 'UserPromptSubmit', '--dialect', 'claude', '-o', 'json', '--workspace', sb.workspace],
      { env: sb.env, input: JSON.stringify({ session_id: 's1', prompt: 'hi' }), timeoutMs: 170_000 },
    );
    if (process.env.HOOKCTL_FIGURES) process.stdout.write(`[figures] http 1 GiB: peak ${r.peakKb} KiB\n`);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { verdict: string; runs: Record<string, unknown>[] };
    expect(json.verdict).toBe('pass');
    expect(json.runs[0]).toMatchObject({
      outcome: 'failed',
      error: 'http status 200: the body is larger than 1048576 bytes',
    });
    expect(r.peakKb).toBeGreaterThan(0);
    expect(r.peakKb).toBeLessThan(PEAK_LIMIT_KB);
  });
});
