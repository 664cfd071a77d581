// The OpenTelemetry export bounds the process (SPEC §9, issue 24): whatever the collector does, a
// `hooks fire` that exports exits within 2 s of the same fire without export, and every socket
// still in flight at the deadline is destroyed. Against real servers on 127.0.0.1: a host that
// drops connection attempts (a full accept queue), one that trickles its headers, one that sends
// a 200 and trickles the body. In vitest.config.ts's TIMED list: it bounds wall time.
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startBlackhole, startTrickler, type StuckCollector } from '../support/otlp-collector.js';
import { emitHook, makeSandbox, parseJson, removeSandboxes, type FireJson, type Sandbox } from './fire-support.js';

afterAll(removeSandboxes);
const collectors: StuckCollector[] = [];
afterEach(async () => {
  await Promise.all(collectors.splice(0).map((c) => c.close()));
});

/** SPEC §9's 2 s, plus slack for a loaded two-core machine; the unbounded export took 134 s or forever. */
const BOUND_MS = 2000 + 1500;

function sandbox(): Sandbox {
  const box = makeSandbox();
  box.writeConfig([
    {
      name: 'a-traced',
      event: 'tool.pre_call',
      mode: 'sync',
      command: box.hook('dump-env.mjs'),
      args: [join(box.out, 'env.json')],
    },
    emitHook(box, 'b-patch', 'tool.pre_call', '{"tool_input":{"path":"PATCH-MARKER"}}'),
  ]);
  return box;
}

function fire(box: Sandbox, session: string, env: Record<string, string> = {}) {
  return box.cli(['hooks', 'fire', 'tool.pre_call', '--session', session, '-o', 'json'], {
    input: '{"tool_id":"compozy__fs_write","tool_input":{"path":"a.txt"}}',
    env: { ...box.env, ...env },
    // Far past the bound: an export that does not bound the process is killed here and fails.
    timeoutMs: 30_000,
  });
}

const KINDS: [string, () => Promise<StuckCollector>, RegExp | null][] = [
  ['drops every connection attempt', startBlackhole, /failed \(no answer within \d+ ms\)/],
  ['trickles its headers', () => startTrickler('headers'), /failed \(no answer within \d+ ms\)/],
  // The status line is the answer: hookctl reads no body, so a 200 is delivered at once.
  ['answers 200 and trickles the body', () => startTrickler('body'), null],
];

describe('hooks fire exporting to a collector that never completes a request', () => {
  for (const [kind, start, warning] of KINDS) {
    it(
      `exits within the bound, with its verdict and ledger, when the collector ${kind}`,
      { timeout: 60_000 },
      async () => {
        const box = sandbox();
        const c = await start();
        collectors.push(c);
        const plain = await fire(box, 'plain');
        expect(plain.code, plain.stderr).toBe(0);
        const stuck = await fire(box, 'stuck', { OTEL_EXPORTER_OTLP_ENDPOINT: c.url });
        expect(stuck.code, stuck.stderr).toBe(plain.code);
        expect(parseJson<FireJson>(stuck.stdout).verdict).toBe(parseJson<FireJson>(plain.stdout).verdict);
        expect(box.records('stuck')).toHaveLength(2);
        expect(stuck.ms - plain.ms).toBeLessThan(BOUND_MS);
        const warnings = stuck.stderr.split('\n').filter((l) => l.includes('OpenTelemetry export'));
        if (warning === null) expect(warnings).toEqual([]);
        else {
          expect(warnings).toHaveLength(2); // one per signal
          for (const w of warnings) expect(w).toMatch(warning);
        }
      },
    );
  }
});

describe('hooks runs --export otlp to a collector that never completes a request', () => {
  it('gives each request its 10 s and then exits 1, the sockets destroyed', { timeout: 60_000 }, async () => {
    const box = sandbox();
    expect((await fire(box, 'later')).code).toBe(0);
    const c = await startTrickler('headers');
    collectors.push(c);
    const res = await box.cli(['hooks', 'runs', '--session', 'later', '--export', 'otlp', '--endpoint', c.url], {
      timeoutMs: 45_000,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/OpenTelemetry export to .*\/v1\/traces failed \(no answer within 10000 ms\)/);
    expect(c.connections()).toBe(2); // one request per signal, not retried
    expect(res.ms).toBeLessThan(10_000 + 5000);
  });
});
