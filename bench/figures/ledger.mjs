// `hooks runs --last 20` on a 1,000,000-record log ÷ on a 100-record log (SPEC §11: the same).
export default {
  id: 'ledger',
  order: 30,
  runs: 10,
  async run(ctx) {
    const big = await ctx.fixtures.ledgerHome(ctx.work, 1_000_000);
    const small = await ctx.fixtures.ledgerHome(ctx.work, 100);
    const bigEnv = ctx.fixtures.homesEnv(big.dir);
    const smallEnv = ctx.fixtures.homesEnv(small.dir);
    const ws = (home) => ctx.fixtures.workspaceFlags(home.dir);
    for (const [env, home] of [
      [bigEnv, big],
      [smallEnv, small],
    ]) {
      const last = JSON.parse(
        (await ctx.run(ctx.hookctl('hooks', 'runs', '--last', '20', '-o', 'json', ...ws(home)), { env, capture: true }))
          .stdout,
      );
      if (last.length !== 20) throw new Error(`ledger: expected 20 records, got ${last.length}`);
    }
    const r = await ctx.cleanRatio(
      this,
      { cmd: ctx.hookctl('hooks', 'runs', '--last', '20', ...ws(big)), env: bigEnv },
      { cmd: ctx.hookctl('hooks', 'runs', '--last', '20', ...ws(small)), env: smallEnv },
    );
    return [
      ctx.row({
        id: 'ledger-ratio',
        figure: '`hooks runs --last 20`: 1,000,000-record log ÷ 100-record log',
        unit: '×',
        median: r.ratio,
        min: r.ratios.min,
        max: r.ratios.max,
        target: { op: '<=', value: 1.2 },
        detail: `1M records ${ctx.spread(r.a)} vs 100 records ${ctx.spread(r.b)} (ratio of medians ${r.ratioOfMedians.toFixed(2)})`,
      }),
    ];
  },
};
