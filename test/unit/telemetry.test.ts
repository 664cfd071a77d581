// OpenTelemetry export (SPEC §9): the variables, the spans and logs built from records, and
// sending them to a real OTLP/HTTP endpoint on 127.0.0.1 decoded with the official .proto files.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/ledger/record.js';
import { otlpExportConfig } from '../../src/telemetry/config.js';
import { startFireExport } from '../../src/telemetry/fire-export.js';
import { dispatchTelemetry, runAttributes, telemetryFromRecords, toolCallIdOf } from '../../src/telemetry/model.js';
import { MAX_RETRIES, retryDelay, sendTelemetry } from '../../src/telemetry/otlp.js';
import { freePort, startCollector, startResetter, type TestCollector } from '../support/otlp-collector.js';

const collectors: TestCollector[] = [];
afterEach(async () => {
  await Promise.all(collectors.splice(0).map((c) => c.close()));
});
async function collector(opts?: { delayMs?: number; status?: number; busyFirst?: number }) {
  const c = await startCollector(opts);
  collectors.push(c);
  return c;
}

function record(i: number, over: Partial<RunRecord> = {}): RunRecord {
  return {
    run_id: `run-${i}`,
    dispatch_id: 'd_1',
    session_id: 's_1',
    dialect: 'compozy',
    event: 'tool.pre_call',
    hook_name: `hook-${i}`,
    source: 'config',
    mode: 'sync',
    priority: 500,
    required: false,
    outcome: 'applied',
    duration_ms: 10,
    dispatch_depth: 1,
    exit_code: 0,
    signal: null,
    timed_out: false,
    recorded_at: new Date(Date.parse('2026-11-29T21:00:00.000Z') + i * 100).toISOString(),
    ...over,
  };
}

describe('otlpExportConfig', () => {
  it('is off without an endpoint, and with OTEL_SDK_DISABLED', () => {
    expect(otlpExportConfig({})).toBeUndefined();
    expect(otlpExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBeUndefined();
    expect(
      otlpExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBeUndefined();
  });

  it('joins the base endpoint with each signal path; a signal endpoint is used as it is', () => {
    expect(otlpExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toMatchObject({
      traces: { url: 'http://c:4318/v1/traces', protocol: 'http/protobuf', headers: {} },
      logs: { url: 'http://c:4318/v1/logs' },
      resource: { 'service.name': 'hookctl' },
    });
    expect(otlpExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/base/' })?.traces?.url).toBe(
      'http://c:4318/base/v1/traces',
    );
    const onlyTraces = otlpExportConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:1/x' });
    expect(onlyTraces?.traces?.url).toBe('http://t:1/x');
    expect(onlyTraces?.logs).toBeUndefined();
    const both = otlpExportConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://l:2/logs',
    });
    expect([both?.traces?.url, both?.logs?.url]).toEqual(['http://c:4318/v1/traces', 'http://l:2/logs']);
    // --endpoint wins over every variable
    expect(
      otlpExportConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:1/x' }, { endpoint: 'http://e:9' })?.traces?.url,
    ).toBe('http://e:9/v1/traces');
  });

  it('reads protocol, headers (percent-decoded, signal headers over common ones), service name and resource', () => {
    const c = otlpExportConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-team = hooks',
      OTEL_EXPORTER_OTLP_LOGS_HEADERS: 'x-team=logs',
      OTEL_SERVICE_NAME: 'agent-hooks',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=ci,service.name=ignored,host.name=box%201',
    })!;
    expect(c.traces).toEqual({
      url: 'http://c:4318/v1/traces',
      protocol: 'http/json',
      headers: { authorization: 'Bearer abc', 'x-team': 'hooks' },
    });
    expect(c.logs?.headers).toEqual({ authorization: 'Bearer abc', 'x-team': 'logs' });
    expect(c.resource).toEqual({ 'deployment.environment': 'ci', 'service.name': 'agent-hooks', 'host.name': 'box 1' });
    expect(c.warnings).toEqual([]);
  });

  it('warns about grpc, a malformed header (naming the key, never the value) and a non-http endpoint', () => {
    const c = otlpExportConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_HEADERS: 'secret-token,x=%zz',
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'c:4318/v1/logs',
    })!;
    expect(c.traces?.protocol).toBe('http/protobuf');
    expect(c.logs).toBeUndefined();
    expect(c.warnings.join('\n')).toMatch(/grpc/);
    expect(c.warnings.join('\n')).toMatch(/"secret-token" is not key=value/);
    expect(c.warnings.join('\n')).toMatch(/value of "x"/);
    expect(c.warnings.join('\n')).not.toMatch(/%zz/);
  });

  it('warns about an unsupported protocol once, not once per signal (issue 22)', () => {
    const shared = otlpExportConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    })!;
    expect(shared.traces?.protocol).toBe('http/protobuf');
    expect(shared.logs?.protocol).toBe('http/protobuf');
    expect(shared.warnings).toEqual([
      'OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not supported (hookctl speaks OTLP/HTTP); using http/protobuf',
    ]);
    const own = otlpExportConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: 'grpc',
    })!;
    expect(own.warnings).toEqual([
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL "grpc", OTEL_EXPORTER_OTLP_LOGS_PROTOCOL "grpc" are not supported (hookctl speaks OTLP/HTTP); using http/protobuf',
    ]);
  });
});

describe('the spans and logs of records', () => {
  it('carries the attributes of SPEC §9 and nothing a hook wrote', () => {
    const r = record(1, {
      dialect: 'cosh',
      outcome: 'denied',
      decision: 'block',
      reason: 'SECRET-REASON',
      exit_code: 2,
      patch_applied: { tool_input: 'SECRET-PATCH' },
      error: 'SECRET-ERROR',
    });
    expect(runAttributes(r, 'call_7')).toEqual({
      'hook.name': 'hook-1',
      'hook.event': 'tool.pre_call',
      'hook.dialect': 'cosh',
      'hook.source': 'config',
      'hook.mode': 'sync',
      'hook.outcome': 'denied',
      'hook.decision': 'block',
      'hook.timed_out': false,
      'process.exit.code': 2,
      'session.id': 's_1',
      'hook.dispatch_id': 'd_1',
      'gen_ai.tool.call.id': 'call_7',
    });
    const t = telemetryFromRecords([
      r,
      record(2, { outcome: 'failed', timed_out: true, exit_code: null, error: 'SECRET-ERROR' }),
    ]);
    expect(JSON.stringify(t)).not.toMatch(/SECRET/);
    expect(t.spans.find((s) => s.attributes['hook.name'] === 'hook-2')?.error).toBe('hook timed out');
  });

  it('finds the tool call id in tool_call_id or tool_use_id', () => {
    expect(toolCallIdOf({ tool_call_id: 'a' })).toBe('a');
    expect(toolCallIdOf({ tool_use_id: 'toolu_1' })).toBe('toolu_1');
    expect(toolCallIdOf({ tool_call_id: 3 })).toBeUndefined();
  });

  it('rebuilds one trace per dispatch with stable ids, run spans under the dispatch span, times from the records', () => {
    const records = [record(1), record(2, { dispatch_id: 'd_2' }), record(3)];
    const a = telemetryFromRecords(records);
    expect(telemetryFromRecords(records)).toEqual(a);
    const dispatches = a.spans.filter((s) => s.name === 'hookctl.dispatch');
    expect(dispatches).toHaveLength(2);
    const d1 = dispatches.find((s) => s.attributes['hook.dispatch_id'] === 'd_1')!;
    const runs = a.spans.filter((s) => s.traceId === d1.traceId && s.name === 'hookctl.hook.run');
    expect(runs.map((s) => s.attributes['hook.name'])).toEqual(['hook-1', 'hook-3']);
    expect(runs.every((s) => s.parentSpanId === d1.spanId)).toBe(true);
    expect(runs[0]!.endMs - runs[0]!.startMs).toBe(10);
    expect(d1.startMs).toBe(runs[0]!.startMs);
    expect(d1.endMs).toBe(runs[1]!.endMs);
    expect(a.logs.map((l) => [l.spanId, l.severityText])).toEqual(
      a.spans.filter((s) => s.name === 'hookctl.hook.run').map((s) => [s.spanId, 'INFO']),
    );
  });
});

describe('sending to an OTLP/HTTP endpoint', () => {
  const telemetry = () =>
    dispatchTelemetry(
      {
        traceId: 'a'.repeat(32),
        spanId: 'b'.repeat(16),
        parentSpanId: 'c'.repeat(16),
        traceFlags: 1,
        startMs: 1000,
        endMs: 1100,
      },
      { dispatchId: 'd_1', sessionId: 's_1', event: 'tool.pre_call', dialect: 'compozy', verdict: 'completed' },
      [record(1), record(2, { outcome: 'failed', exit_code: 3 })],
    );

  for (const protocol of ['http/protobuf', 'http/json'] as const) {
    it(`delivers spans and logs as ${protocol}, with headers and resource`, async () => {
      const c = await collector();
      const config = otlpExportConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: c.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=k1',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
      })!;
      const warnings = await sendTelemetry(config, telemetry(), { budgetMs: 5000, version: '0.0.0-test' });
      expect(warnings).toEqual([]);
      expect(c.requests.map((r) => r.path).sort()).toEqual(['/v1/logs', '/v1/traces']);
      expect(c.requests.every((r) => r.headers['x-api-key'] === 'k1')).toBe(true);
      expect(c.requests[0]!.contentType).toBe(protocol === 'http/json' ? 'application/json' : 'application/x-protobuf');
      const spans = c.spans();
      const dispatch = spans.find((s) => s.name === 'hookctl.dispatch')!;
      expect(dispatch).toMatchObject({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), parentSpanId: 'c'.repeat(16) });
      expect(dispatch.resource).toMatchObject({ 'service.name': 'hookctl', 'deployment.environment': 'test' });
      const runs = spans.filter((s) => s.name === 'hookctl.hook.run');
      expect(runs).toHaveLength(2);
      expect(runs.every((s) => s.parentSpanId === 'b'.repeat(16))).toBe(true);
      expect(runs[1]!.attributes).toMatchObject({ 'hook.outcome': 'failed', 'process.exit.code': 3 });
      expect(String(runs[1]!.status.code)).toMatch(/ERROR|2/);
      expect(runs[1]!.status.message).toBe('hook exited with status 3');
      const logs = c.logs();
      expect(logs.map((l) => l.spanId)).toEqual(runs.map((s) => s.spanId));
      expect(logs[1]).toMatchObject({ severityText: 'ERROR', eventName: 'hookctl.hook.run' });
      expect(logs[0]!.body).toBe('hook "hook-1" applied on tool.pre_call in 10 ms');
    });
  }

  it('sends in batches of 512', async () => {
    const c = await collector();
    const records = Array.from({ length: 1100 }, (_, i) => record(i, { dispatch_id: `d_${Math.floor(i / 100)}` }));
    const t = telemetryFromRecords(records);
    expect(t.spans).toHaveLength(1100 + 11);
    const warnings = await sendTelemetry(otlpExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: c.url })!, t, {
      budgetMs: 20_000,
      version: 'x',
    });
    expect(warnings).toEqual([]);
    expect(c.requests.filter((r) => r.path === '/v1/traces')).toHaveLength(3); // 512 + 512 + 87
    expect(c.requests.filter((r) => r.path === '/v1/logs')).toHaveLength(3); // 512 + 512 + 76
    expect(c.spans()).toHaveLength(1111);
    expect(c.logs()).toHaveLength(1100);
  });

  it('gives up within its budget when nothing listens, with one warning per signal', async () => {
    const port = await freePort();
    const config = otlpExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` })!;
    const started = Date.now();
    const warnings = await sendTelemetry(config, telemetry(), { budgetMs: 1500, version: 'x' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /OpenTelemetry export to http:\/\/127\.0\.0\.1:\d+\/v1\/traces failed .*the ledger has every run/,
    );
  });

  it('gives up on a collector slower than the budget', async () => {
    const c = await collector({ delayMs: 5000 });
    const config = otlpExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: c.url })!;
    const started = Date.now();
    const warnings = await sendTelemetry(config, telemetry(), { budgetMs: 800, version: 'x' });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(warnings).toHaveLength(2);
    expect(c.requests.length).toBeGreaterThan(0); // it did arrive, the answer did not
  });

  it('warns when the collector refuses, without retrying a status that is not retryable', async () => {
    const c = await collector({ status: 400 });
    const warnings = await sendTelemetry(otlpExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: c.url })!, telemetry(), {
      budgetMs: 3000,
      version: 'x',
    });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/failed \(HTTP 400 Bad Request\)/);
    expect(c.requests).toHaveLength(2);
  });

  it('retries a request answered 503, after its Retry-After', async () => {
    const c = await collector({ busyFirst: 3 });
    const warnings = await sendTelemetry(otlpExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: c.url })!, telemetry(), {
      budgetMs: 5000,
      version: 'x',
    });
    expect(warnings).toEqual([]);
    expect(c.requests).toHaveLength(2 + 3);
    // The 503s were answered after the body arrived: each signal was sent until one was taken.
    expect(c.requests.filter((r) => r.path === '/v1/traces').length).toBeGreaterThanOrEqual(1);
    expect(c.requests.filter((r) => r.path === '/v1/logs').length).toBeGreaterThanOrEqual(1);
  });

  // Every attempt, seen as Node starts it: the real requests, counted per collector.
  function attemptsTo(url: string) {
    const host = new URL(url).host;
    const seen: string[] = [];
    const onStart = (message: unknown) => {
      const request = (message as { request: ClientRequest }).request;
      if (request.getHeader('host') === host) seen.push(request.path);
    };
    subscribe('http.client.request.start', onStart);
    return { seen, stop: () => unsubscribe('http.client.request.start', onStart) };
  }

  it('fails a refused or reset connection at once: one attempt per signal, however much budget is left (issue 22)', async () => {
    const refused = `http://127.0.0.1:${await freePort()}`;
    const reset = await startResetter();
    try {
      for (const url of [refused, reset.url]) {
        const attempts = attemptsTo(url);
        try {
          const warnings = await sendTelemetry(otlpExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: url })!, telemetry(), {
            budgetMs: 10_000,
            version: 'x',
          });
          expect(warnings).toHaveLength(2);
          expect(warnings.join('\n')).toMatch(url === refused ? /ECONNREFUSED/ : /socket hang up|ECONNRESET/);
        } finally {
          attempts.stop();
        }
        expect(attempts.seen.sort()).toEqual(['/v1/logs', '/v1/traces']);
      }
      expect(reset.connections()).toBe(2);
    } finally {
      await reset.close();
    }
  });
});

describe('retryDelay', () => {
  const NOW = Date.parse('2026-12-01T12:00:00Z');
  it('retries only 429, 502, 503 and 504, at most MAX_RETRIES times', () => {
    for (const status of [429, 502, 503, 504]) expect(retryDelay({ status }, 0, 10_000, NOW, () => 0.5)).toBe(250);
    for (const status of [400, 401, 404, 413, 500])
      expect(retryDelay({ status }, 0, 10_000, NOW, () => 0.5)).toBeUndefined();
    expect(retryDelay({ status: 503 }, MAX_RETRIES - 1, 60_000, NOW, () => 0.5)).toBe(2000);
    expect(retryDelay({ status: 503 }, MAX_RETRIES, 60_000, NOW, () => 0.5)).toBeUndefined();
  });

  it('backs off exponentially with ±20 % jitter, up to 5 s', () => {
    expect(retryDelay({ status: 503 }, 1, 60_000, NOW, () => 0)).toBe(400);
    expect(retryDelay({ status: 503 }, 1, 60_000, NOW, () => 1)).toBe(600);
    expect(retryDelay({ status: 503 }, 10, 60_000, NOW, () => 0.5)).toBeUndefined();
  });

  it('follows Retry-After, in seconds or as a date, and gives up when the wait would pass the deadline', () => {
    expect(retryDelay({ status: 429, retryAfter: '2' }, 0, 10_000, NOW)).toBe(2000);
    expect(retryDelay({ status: 429, retryAfter: '0' }, 0, 10_000, NOW)).toBe(0);
    expect(retryDelay({ status: 503, retryAfter: new Date(NOW + 3000).toUTCString() }, 0, 10_000, NOW)).toBe(3000);
    expect(retryDelay({ status: 503, retryAfter: 'soon' }, 0, 10_000, NOW, () => 0.5)).toBe(250);
    expect(retryDelay({ status: 429, retryAfter: '2' }, 0, 1500, NOW)).toBeUndefined();
    expect(retryDelay({ status: 503 }, 0, 200, NOW, () => 0.5)).toBeUndefined();
  });
});

describe('a live fire export', () => {
  it('gives each run its own TRACEPARENT under the invoking one, and sends the runs as children', async () => {
    const c = await collector();
    const parentTrace = '0af7651916cd43dd8448eb211c80319c';
    const fx = startFireExport({
      config: otlpExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: c.url })!,
      env: { TRACEPARENT: `00-${parentTrace}-b7ad6b7169203331-01`, TRACESTATE: 'vendor=1' },
      facts: { dispatchId: 'd_1', sessionId: 's_1', event: 'tool.pre_call', dialect: 'compozy' },
      payload: { tool_call_id: 'call_1' },
      version: 'x',
    });
    const a = fx.beforeRun();
    const b = fx.beforeRun();
    expect(a.env.TRACEPARENT).toMatch(new RegExp(`^00-${parentTrace}-[0-9a-f]{16}-01$`));
    expect(a.env.TRACEPARENT).not.toBe(b.env.TRACEPARENT);
    expect(a.env.TRACESTATE).toBe('vendor=1');
    const ra = record(1);
    a.end(ra);
    fx.onRecord(ra);
    const skipped = record(2, { outcome: 'skipped', exit_code: undefined });
    fx.onRecord(skipped); // a run that started no process
    expect(await fx.finish({ verdict: 'completed', failed: false })).toEqual([]);
    const spans = c.spans();
    const dispatch = spans.find((s) => s.name === 'hookctl.dispatch')!;
    expect(dispatch).toMatchObject({ traceId: parentTrace, parentSpanId: 'b7ad6b7169203331' });
    expect(dispatch.attributes).toMatchObject({ 'hook.verdict': 'completed', 'gen_ai.tool.call.id': 'call_1' });
    const runs = spans.filter((s) => s.name === 'hookctl.hook.run');
    expect(runs.map((s) => s.spanId)[0]).toBe(a.env.TRACEPARENT!.split('-')[2]);
    expect(runs.every((s) => s.parentSpanId === dispatch.spanId && s.traceId === parentTrace)).toBe(true);
    expect(runs).toHaveLength(2);
  });

  it('starts a new trace (with a warning) for a malformed TRACEPARENT, and sends no spans for an unsampled one', async () => {
    const c = await collector();
    const config = otlpExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: c.url })!;
    const bad = startFireExport({
      config,
      env: { TRACEPARENT: 'nope' },
      facts: { dispatchId: 'd', sessionId: 's', event: 'e', dialect: 'x' },
      payload: {},
      version: 'x',
    });
    expect(bad.beforeRun().env.TRACEPARENT).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(await bad.finish({ verdict: 'completed', failed: false })).toEqual([
      'TRACEPARENT is not a valid W3C traceparent; the dispatch starts a new trace',
    ]);
    c.requests.length = 0;
    const unsampled = startFireExport({
      config,
      env: { TRACEPARENT: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-00` },
      facts: { dispatchId: 'd', sessionId: 's', event: 'e', dialect: 'x' },
      payload: {},
      version: 'x',
    });
    const run = unsampled.beforeRun();
    expect(run.env.TRACEPARENT).toMatch(/-00$/);
    run.end(record(1));
    unsampled.onRecord(record(1));
    await unsampled.finish({ verdict: 'completed', failed: false });
    expect(c.spans()).toEqual([]);
    expect(c.logs()).toHaveLength(1);
  });
});
