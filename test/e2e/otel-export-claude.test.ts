// The OpenTelemetry export of a claude dispatch (SPEC §9, every dialect): the claude hooks run in
// parallel, and each still gets its own run span's TRACEPARENT; sessions and stats read the
// claude session folder through the registry.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCollector, type TestCollector } from '../support/otlp-collector.js';
import { bash, cmd, group, sandbox } from './claude-support.js';

const collectors: TestCollector[] = [];
afterEach(async () => {
  await Promise.all(collectors.splice(0).map((c) => c.close()));
});

describe('claude', () => {
  it('exports a dispatch with parallel runs, each hook seeing its own run span', { timeout: 60_000 }, async () => {
    const sb = sandbox();
    const c = await startCollector();
    collectors.push(c);
    const dump = (name: string) => cmd(`printf %s "$TRACEPARENT" > ${join(sb.out, name)}`);
    sb.settings({ PreToolUse: [group([dump('one'), dump('two')], 'Bash')] });
    sb.env.OTEL_EXPORTER_OTLP_ENDPOINT = c.url;
    sb.env.TRACEPARENT = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    const r = await sb.fire('PreToolUse', { ...bash('ls'), tool_use_id: 'toolu_9' });
    expect(r.code, r.stderr).toBe(0);
    const spans = c.spans();
    const dispatch = spans.find((s) => s.name === 'hookctl.dispatch')!;
    expect(dispatch).toMatchObject({ traceId: 'a'.repeat(32), parentSpanId: 'b'.repeat(16) });
    const runs = spans.filter((s) => s.name === 'hookctl.hook.run');
    expect(runs).toHaveLength(2);
    for (const s of runs) {
      expect(s.parentSpanId).toBe(dispatch.spanId);
      expect(s.attributes).toMatchObject({ 'hook.dialect': 'claude', 'gen_ai.tool.call.id': 'toolu_9' });
    }
    const seen = ['one', 'two'].map((f) => readFileSync(join(sb.out, f), 'utf8'));
    expect(new Set(seen).size).toBe(2);
    expect(seen.map((t) => t.split('-')[2]).sort()).toEqual(runs.map((s) => s.spanId).sort());
    expect(c.logs()).toHaveLength(2);

    const sessions = JSON.parse((await sb.cli(['hooks', 'sessions', '--dialect', 'claude', '-o', 'json'])).stdout);
    expect(sessions).toMatchObject([{ session_id: 's1', dialect: 'claude', runs: 2 }]);
    const stats = JSON.parse((await sb.cli(['hooks', 'runs', '--stats', '--all-sessions', '-o', 'json'])).stdout);
    expect(stats.map((row: { dialect: string; runs: number }) => [row.dialect, row.runs])).toEqual([
      ['claude', 1],
      ['claude', 1],
    ]);
  });
});
