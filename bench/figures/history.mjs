// Runs over time (issue 15, SPEC §11): `runs --stats` over 1,000,000 records (wall time ≤ 3 s,
// peak RSS < 150 MB), `sessions` over 10,000 sessions (≤ 1 s), and a fire with the OpenTelemetry
// export on (to a local OTLP sink) against the same fire without it.
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { exportFireHome, sessionsHome, startSink } from '../lib/history.mjs';

export default {
  id: 'history',
  order: 60,
  runs: 5,
  async run(ctx) {
    const big = await ctx.fixtures.ledgerHome(ctx.work, 1_000_000);
    const bigEnv = ctx.fixtures.homesEnv(big.dir);
    const bigWs = ctx.fixtures.workspaceFlags(big.dir);
    const statsRows = JSON.parse(
      (await ctx.run(ctx.hookctl('hooks', 'runs', '--stats', '-o', 'json', ...bigWs), { env: bigEnv, capture: true }))
        .stdout,
    );
    const counted = statsRows.reduce((n, r) => n + r.runs, 0);
    if (counted !== 1_000_000) throw new Error(`history: --stats counted ${counted} runs, expected 1,000,000`);

    const sessions = await sessionsHome(ctx.work, 10_000, 10);
    const sessionsEnv = ctx.fixtures.homesEnv(sessions.dir);
    const sessionsWs = ctx.fixtures.workspaceFlags(sessions.dir);
    const listed = JSON.parse(
      (
        await ctx.run(ctx.hookctl('hooks', 'sessions', '-o', 'json', ...sessionsWs), {
          env: sessionsEnv,
          capture: true,
        })
      ).stdout,
    );
    if (listed.length !== 10_000) throw new Error(`history: sessions listed ${listed.length}, expected 10,000`);

    const runs = ctx.runsFor(this);
    const statsTimes = [];
    const sessionsTimes = [];
    for (let i = 0; i < runs + ctx.warmup; i++) {
      const s = await ctx.run(ctx.hookctl('hooks', 'runs', '--stats', ...bigWs), { env: bigEnv });
      const l = await ctx.run(ctx.hookctl('hooks', 'sessions', ...sessionsWs), { env: sessionsEnv });
      if (i >= ctx.warmup) {
        statsTimes.push(s.ms);
        sessionsTimes.push(l.ms);
      }
    }
    const statsMb = [];
    for (let i = 0; i < Math.min(runs, 3); i++)
      statsMb.push((await ctx.peakRss({ cmd: ctx.hookctl('hooks', 'runs', '--stats', ...bigWs), env: bigEnv })).mb);

    const hooks = 5;
    const fireHome = await exportFireHome(ctx.work, hooks);
    const plainEnv = ctx.fixtures.homesEnv(fireHome.dir);
    const sink = await startSink();
    const exportEnv = { ...plainEnv, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url };
    const fire = (env) => ({
      cmd: ctx.hookctl(
        'hooks',
        'fire',
        'prompt.post_assemble',
        '--session',
        'bench-export',
        '--workspace',
        join(fireHome.dir, 'workspace'),
      ),
      env,
      input: '{"prompt":"benchmark"}',
    });
    let r;
    try {
      await ctx.run(fire(exportEnv).cmd, fire(exportEnv));
      if (sink.requests() < 2) throw new Error(`history: the export sent ${sink.requests()} requests, expected 2`);
      r = await ctx.cleanRatio(this, fire(exportEnv), fire(plainEnv));
    } finally {
      await sink.close();
      rmSync(join(plainEnv.COMPOZY_HOME, 'sessions'), { recursive: true, force: true });
    }
    return [
      ctx.statsRow(statsTimes, {
        id: 'history-stats-wall',
        figure: '`hooks runs --stats` over a 1,000,000-record log: wall time',
        unit: 'ms',
        target: { op: '<=', value: 3000 },
      }),
      ctx.statsRow(statsMb, {
        id: 'history-stats-memory',
        figure: 'peak RSS: `hooks runs --stats` over a 1,000,000-record log',
        unit: 'MB',
        target: { op: '<', value: 150 },
        detail: ctx.rssDetail(statsMb),
      }),
      ctx.statsRow(sessionsTimes, {
        id: 'history-sessions-wall',
        figure: '`hooks sessions` over 10,000 sessions (10 records each): wall time',
        unit: 'ms',
        target: { op: '<=', value: 1000 },
      }),
      ctx.row({
        id: 'history-export-ratio',
        figure: `\`hooks fire\` of ${hooks} hooks with the OpenTelemetry export on (local sink) ÷ without`,
        unit: '×',
        median: r.ratio,
        min: r.ratios.min,
        max: r.ratios.max,
        detail: `export ${ctx.spread(r.a)} vs none ${ctx.spread(r.b)}; the export adds ${r.differences.median.toFixed(0)} ms (median of the per-round differences)`,
      }),
    ];
  },
};
