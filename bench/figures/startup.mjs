// Start-up of the read commands on the demo ÷ `node -e 0` (SPEC §11: ≤ 3×), both sides in the
// same environment, clean by default (bench/lib/env.mjs).
export default {
  id: 'startup',
  order: 10,
  runs: 10,
  async run(ctx) {
    const demo = await ctx.fixtures.demoCopy(ctx.root, ctx.work);
    const base = { cmd: [ctx.node, '-e', '0'], env: demo.env };
    const cases = [
      ['startup-list', '`hooks list -o json`', ['hooks', 'list', '-o', 'json', ...demo.flags]],
      ['startup-runs', '`hooks runs`', ['hooks', 'runs', ...demo.flags]],
      ['startup-events', '`hooks events`', ['hooks', 'events']],
      [
        'startup-info',
        '`hooks info block-secret-file-edits`',
        ['hooks', 'info', 'block-secret-file-edits', ...demo.flags],
      ],
    ];
    // The commands do their real work (not an error path).
    const listed = JSON.parse(
      (await ctx.run(ctx.hookctl('hooks', 'list', '-o', 'json', ...demo.flags), { env: demo.env, capture: true }))
        .stdout,
    );
    if (!Array.isArray(listed) || listed.length < 10)
      throw new Error('startup: the demo lists fewer hooks than expected');
    const ran = JSON.parse(
      (await ctx.run(ctx.hookctl('hooks', 'runs', '-o', 'json', ...demo.flags), { env: demo.env, capture: true }))
        .stdout,
    );
    if (ran.length !== 100) throw new Error(`startup: expected 100 demo runs, got ${ran.length}`);

    const rows = [];
    for (const [id, command, args] of cases) {
      rows.push(
        ...(await ctx.ratioRows(this, { cmd: ctx.hookctl(...args), env: demo.env }, base, { cpu: true }, (r) =>
          ctx.row({
            id,
            figure: `start-up: ${command} ÷ \`node -e 0\``,
            unit: '×',
            median: r.ratio,
            min: r.ratios.min,
            max: r.ratios.max,
            target: { op: '<=', value: 3 },
            aim: 2.5,
            detail: `hookctl ${ctx.spread(r.a)} vs node ${ctx.spread(r.b)} (ratio of medians ${r.ratioOfMedians.toFixed(2)})${ctx.cpuNote(r)}`,
            extra: { hookctlMs: r.a.median, nodeMs: r.b.median, cpuRatio: r.cpuRatios?.median },
          }),
        )),
      );
    }
    return rows;
  },
};
