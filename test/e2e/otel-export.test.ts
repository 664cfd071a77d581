// The OpenTelemetry export end to end (SPEC §9, issue 15): `hooks fire` against an OTLP/HTTP
// endpoint this test starts on 127.0.0.1, decoded with the official OTLP .proto files; the hook's
// own TRACEPARENT; JSON; a collector that is down or slow; `runs --export otlp`; and a fire that
// does not export never loading the OpenTelemetry packages.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/ledger/record.js';
import { repoRoot } from '../support/cli.js';
import { freePort, startCollector, type TestCollector } from '../support/otlp-collector.js';
import { emitHook, makeSandbox, parseJson, removeSandboxes, type FireJson, type Sandbox } from './fire-support.js';

afterAll(removeSandboxes);
const collectors: TestCollector[] = [];
afterEach(async () => {
  await Promise.all(collectors.splice(0).map((c) => c.close()));
});
async function collector(opts?: { delayMs?: number }) {
  const c = await startCollector(opts);
  collectors.push(c);
  return c;
}

const PARENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN = '00f067aa0ba902b7';
const PAYLOAD =
  '{"tool_id":"compozy__fs_write","tool_call_id":"call_42","tool_input":{"path":"PATH-MARKER.txt","secret":"PAYLOAD-MARKER"}}';

/** A traced hook that dumps its environment, one that patches, one that fails. */
function exportSandbox(): Sandbox {
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
    emitHook(box, 'c-fails', 'tool.pre_call', 'OUTPUT-MARKER', { args: ['OUTPUT-MARKER', '3'] }),
  ]);
  return box;
}

function fire(box: Sandbox, session: string, env: Record<string, string> = {}) {
  return box.cli(['hooks', 'fire', 'tool.pre_call', '--session', session, '-o', 'json'], {
    input: PAYLOAD,
    env: { ...box.env, ...env },
    timeoutMs: 60_000,
  });
}

/** The parts of a record that do not change between two fires of the same event. */
function stable(r: RunRecord) {
  const { run_id: _r, dispatch_id: _d, duration_ms: _m, recorded_at: _t, ...rest } = r;
  return rest;
}

/** The built files holding OpenTelemetry code (dist/modules.json, written by the build). */
function otelFiles(): string[] {
  const built = JSON.parse(readFileSync(join(repoRoot, 'dist', 'modules.json'), 'utf8')) as Record<
    string,
    { modules: string[] }
  >;
  return Object.keys(built)
    .filter((f) => built[f]!.modules.some((m) => m.includes('node_modules/@opentelemetry/')))
    .map((f) => `/dist/${f}`);
}

describe('hooks test with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it(
    "exports nothing: its cases record to a temporary ledger, not the user's activity",
    { timeout: 60_000 },
    async () => {
      const box = exportSandbox();
      const c = await collector();
      const file = join(box.workspace, 'guard.hooktest.yaml');
      writeFileSync(
        file,
        ['cases:', '  - name: fires', '    event: tool.pre_call', `    payload: ${PAYLOAD}`, ''].join('\n'),
      );
      const res = await box.cli(['hooks', 'test', file], { env: { ...box.env, OTEL_EXPORTER_OTLP_ENDPOINT: c.url } });
      expect(res.code, res.stdout + res.stderr).toBe(0);
      expect(res.stdout).toMatch(/1 passed, 0 failed/);
      expect(c.requests).toEqual([]);
    },
  );
});

describe('hooks fire with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  for (const protocol of ['http/protobuf', 'http/json']) {
    it(
      `sends a dispatch span, a child span and a log record per run (${protocol}); the hook gets its run span's TRACEPARENT`,
      { timeout: 60_000 },
      async () => {
        const box = exportSandbox();
        const c = await collector();
        const res = await fire(box, 'traced', {
          OTEL_EXPORTER_OTLP_ENDPOINT: c.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
          OTEL_EXPORTER_OTLP_HEADERS: 'x-hookctl-test=yes',
          OTEL_SERVICE_NAME: 'hooks-under-test',
          OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=e2e',
          TRACEPARENT: `00-${PARENT_TRACE}-${PARENT_SPAN}-01`,
        });
        expect(res.code, res.stderr).toBe(0);
        expect(res.stderr).toBe('');
        const out = parseJson<FireJson>(res.stdout);
        expect(c.requests.every((r) => r.headers['x-hookctl-test'] === 'yes')).toBe(true);
        expect(c.requests[0]!.contentType).toBe(
          protocol === 'http/json' ? 'application/json' : 'application/x-protobuf',
        );

        const spans = c.spans();
        const dispatch = spans.filter((s) => s.name === 'hookctl.dispatch');
        expect(dispatch).toHaveLength(1);
        expect(dispatch[0]).toMatchObject({ traceId: PARENT_TRACE, parentSpanId: PARENT_SPAN });
        expect(dispatch[0]!.attributes).toMatchObject({
          'hook.event': 'tool.pre_call',
          'hook.dialect': 'compozy',
          'session.id': 'traced',
          'hook.dispatch_id': out.dispatch_id,
          'gen_ai.tool.call.id': 'call_42',
        });
        expect(dispatch[0]!.resource).toMatchObject({
          'service.name': 'hooks-under-test',
          'deployment.environment': 'e2e',
        });

        const runs = spans.filter((s) => s.name === 'hookctl.hook.run');
        expect(runs.map((s) => s.attributes['hook.name'])).toEqual(['a-traced', 'b-patch', 'c-fails']);
        for (const s of runs) {
          expect(s.traceId).toBe(PARENT_TRACE);
          expect(s.parentSpanId).toBe(dispatch[0]!.spanId);
        }
        const failed = runs[2]!;
        expect(failed.attributes).toEqual({
          'hook.name': 'c-fails',
          'hook.event': 'tool.pre_call',
          'hook.dialect': 'compozy',
          'hook.source': 'config',
          'hook.mode': 'sync',
          'hook.outcome': 'failed',
          'hook.timed_out': false,
          'process.exit.code': 3,
          'session.id': 'traced',
          'hook.dispatch_id': out.dispatch_id,
          'gen_ai.tool.call.id': 'call_42',
        });
        expect(String(failed.status.code)).toMatch(/ERROR|^2$/);
        expect(String(runs[0]!.status.code ?? 'STATUS_CODE_UNSET')).toMatch(/UNSET|^0$/);
        // The run span is timed inside the dispatch span.
        expect(BigInt(runs[0]!.startTimeUnixNano) >= BigInt(dispatch[0]!.startTimeUnixNano)).toBe(true);
        expect(BigInt(runs[2]!.endTimeUnixNano) <= BigInt(dispatch[0]!.endTimeUnixNano)).toBe(true);

        // The hook saw TRACEPARENT naming its own run span (and a compozy hook sees nothing else of ours).
        const seen = parseJson<{ env: Record<string, string> }>(readFileSync(join(box.out, 'env.json'), 'utf8')).env;
        expect(seen.TRACEPARENT).toBe(`00-${PARENT_TRACE}-${runs[0]!.spanId}-01`);
        expect(Object.keys(seen).filter((k) => k.startsWith('OTEL_'))).toEqual([]);

        const logs = c.logs();
        expect(logs.map((l) => [l.spanId, l.traceId, l.attributes['hook.name']])).toEqual(
          runs.map((s) => [s.spanId, PARENT_TRACE, s.attributes['hook.name']]),
        );
        expect(logs[2]).toMatchObject({ severityText: 'ERROR', eventName: 'hookctl.hook.run' });
        expect(logs[0]!.body).toMatch(/^hook "a-traced" applied on tool\.pre_call in \d+ ms$/);

        // Privacy: no payload, patch or output in anything sent.
        const sent = JSON.stringify(c.requests.map((r) => r.body));
        for (const marker of ['PAYLOAD-MARKER', 'PATCH-MARKER', 'OUTPUT-MARKER', 'PATH-MARKER'])
          expect(sent).not.toContain(marker);
      },
    );
  }

  it("gives a cosh hook its run span's TRACEPARENT too, and records its decision", { timeout: 60_000 }, async () => {
    const box = makeSandbox();
    const seen = join(box.out, 'cosh-traceparent');
    mkdirSync(box.env.COSH_HOME!, { recursive: true });
    writeFileSync(
      join(box.env.COSH_HOME!, 'config.toml'),
      [
        '[[hooks.PreToolUse]]',
        'name = "cosh-traced"',
        `command = ${JSON.stringify(`printf %s "$TRACEPARENT" > ${seen}; printf '{"decision":"block","reason":"REASON-MARKER"}'`)}`,
        '',
      ].join('\n'),
    );
    const c = await collector();
    const res = await box.cli(['hooks', 'fire', 'PreToolUse', '--session', 'cosh-t', '-o', 'json'], {
      input: '{"tool_name":"shell","tool_use_id":"toolu_7"}',
      env: { ...box.env, OTEL_EXPORTER_OTLP_ENDPOINT: c.url },
    });
    expect(res.code, res.stderr).toBe(1); // blocked
    const run = c.spans().find((s) => s.name === 'hookctl.hook.run')!;
    expect(run.attributes).toMatchObject({
      'hook.name': 'cosh-traced',
      'hook.dialect': 'cosh',
      'hook.outcome': 'denied',
      'hook.decision': 'block',
      'gen_ai.tool.call.id': 'toolu_7',
    });
    expect(readFileSync(seen, 'utf8')).toBe(`00-${run.traceId}-${run.spanId}-01`);
    expect(JSON.stringify(c.requests.map((r) => r.body))).not.toContain('REASON-MARKER');
  });

  it(
    'without an endpoint: no TRACEPARENT for the hook, and no OpenTelemetry module is loaded',
    { timeout: 60_000 },
    async () => {
      const box = exportSandbox();
      const spy = join(box.out, 'spy.cjs');
      const loaded = join(box.out, 'loaded.txt');
      writeFileSync(
        spy,
        // Every file the run loaded; the OpenTelemetry code is bundled into dist/ chunks.
        `const fs = require('fs');
       process.on('exit', () => fs.writeFileSync(${JSON.stringify(loaded)}, Object.keys(require.cache).join('\\n')));`,
      );
      const res = await fire(box, 'plain', {
        NODE_OPTIONS: `--require ${spy}`,
        TRACEPARENT: `00-${PARENT_TRACE}-${PARENT_SPAN}-01`,
      });
      expect(res.code, res.stderr).toBe(0);
      const otel = otelFiles();
      expect(otel.length).toBeGreaterThan(0);
      const loadedOtel = () =>
        readFileSync(loaded, 'utf8')
          .split('\n')
          .filter((f) => otel.some((o) => f.endsWith(o)));
      expect(loadedOtel()).toEqual([]);
      const seen = parseJson<{ env: Record<string, string> }>(readFileSync(join(box.out, 'env.json'), 'utf8')).env;
      expect(seen.TRACEPARENT).toBeUndefined();
      // The spy does see the packages when exporting (so the check above can fail).
      const c = await collector();
      await fire(box, 'spied', { NODE_OPTIONS: `--require ${spy}`, OTEL_EXPORTER_OTLP_ENDPOINT: c.url });
      expect(loadedOtel().length).toBeGreaterThan(0);
    },
  );

  it(
    'with the collector down: the same verdict, exit code and ledger, one warning per signal, at most 2 s more',
    { timeout: 60_000 },
    async () => {
      const box = exportSandbox();
      const port = await freePort();
      const plain = await fire(box, 'down-plain');
      const down = await fire(box, 'down', { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
      expect(down.code).toBe(plain.code);
      const [a, b] = [parseJson<FireJson>(plain.stdout), parseJson<FireJson>(down.stdout)];
      expect(b.verdict).toBe(a.verdict);
      const { session_id: _s1, timestamp: _t1, ...payloadA } = a.payload;
      const { session_id: _s2, timestamp: _t2, ...payloadB } = b.payload;
      expect(payloadB).toEqual(payloadA);
      expect(box.records('down').map(stable)).toEqual(
        box.records('down-plain').map((r) => ({ ...stable(r), session_id: 'down' })),
      );
      expect(down.ms - plain.ms).toBeLessThan(2000);
      const warnings = down.stderr.split('\n').filter((l) => l.includes('OpenTelemetry export'));
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatch(/failed .*3 of 3 log records|failed .*4 of 4 spans/);
    },
  );

  it(
    'with OTEL_EXPORTER_OTLP_PROTOCOL=grpc: one warning, and both signals sent as http/protobuf',
    { timeout: 60_000 },
    async () => {
      const box = exportSandbox();
      const c = await collector();
      const res = await fire(box, 'grpc', { OTEL_EXPORTER_OTLP_ENDPOINT: c.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr.split('\n').filter((l) => l.includes('grpc'))).toEqual([
        'hookctl: warning: OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not supported (hookctl speaks OTLP/HTTP); using http/protobuf',
      ]);
      expect(c.requests.map((r) => `${r.path} ${r.contentType}`).sort()).toEqual([
        '/v1/logs application/x-protobuf',
        '/v1/traces application/x-protobuf',
      ]);
    },
  );

  it('with a slow collector: gives up within the bound and warns', { timeout: 60_000 }, async () => {
    const box = exportSandbox();
    const c = await collector({ delayMs: 10_000 });
    const plain = await fire(box, 'slow-plain');
    const slow = await fire(box, 'slow', { OTEL_EXPORTER_OTLP_ENDPOINT: c.url });
    expect(slow.code).toBe(plain.code);
    expect(slow.ms - plain.ms).toBeLessThan(2000);
    expect(slow.stderr).toMatch(/OpenTelemetry export to http:\/\/127\.0\.0\.1:\d+\/v1\/(traces|logs) failed/);
    expect(box.records('slow')).toHaveLength(3);
    expect(c.requests.length).toBeGreaterThan(0);
  });

  it(
    'hooks runs --export otlp sends what the ledger holds, one trace per dispatch, in batches',
    { timeout: 60_000 },
    async () => {
      const box = exportSandbox();
      for (let i = 0; i < 3; i++) expect((await fire(box, 'later')).code).toBe(0);
      const c = await collector();
      const res = await box.cli(['hooks', 'runs', '--session', 'later', '--export', 'otlp', '--endpoint', c.url]);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toMatch(/exported 9 runs of 3 dispatches/);
      const spans = c.spans();
      const dispatches = spans.filter((s) => s.name === 'hookctl.dispatch');
      expect(dispatches).toHaveLength(3);
      expect(new Set(dispatches.map((s) => s.traceId)).size).toBe(3);
      const runs = spans.filter((s) => s.name === 'hookctl.hook.run');
      expect(runs).toHaveLength(9);
      for (const r of runs) expect(dispatches.find((d) => d.spanId === r.parentSpanId)?.traceId).toBe(r.traceId);
      expect(c.logs()).toHaveLength(9);
      // The filters apply.
      const c2 = await collector();
      await box.cli([
        'hooks',
        'runs',
        '--session',
        'later',
        '--outcome',
        'failed',
        '--export',
        'otlp',
        '--endpoint',
        c2.url,
      ]);
      expect(
        c2
          .spans()
          .filter((s) => s.name === 'hookctl.hook.run')
          .map((s) => s.attributes['hook.name']),
      ).toEqual(['c-fails', 'c-fails', 'c-fails']);
      // Nothing listening: exit 1 and a warning.
      const down = await box.cli(
        [
          'hooks',
          'runs',
          '--session',
          'later',
          '--export',
          'otlp',
          '--endpoint',
          `http://127.0.0.1:${await freePort()}`,
        ],
        {
          timeoutMs: 60_000,
        },
      );
      expect(down.code).toBe(1);
      expect(down.stderr).toMatch(/OpenTelemetry export to .* failed/);
    },
  );
});
