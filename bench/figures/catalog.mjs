// `hooks list` over 10,000 declarations (SPEC §11: within 1 s), and its ratio to 10.
import { join } from 'node:path';

const BIG_CATALOG = { configCount: 2000, skillCount: 4000, perSkill: 2 };
const SMALL_CATALOG = { configCount: 2, skillCount: 4, perSkill: 2 };

let inputs;
/** The 10,000- and 10-declaration workspaces (the memory figure uses them too). */
export function catalogs(ctx) {
  inputs ??= (async () => {
    const big = await ctx.fixtures.catalogWorkspace(ctx.root, ctx.work, BIG_CATALOG);
    const small = await ctx.fixtures.catalogWorkspace(ctx.root, ctx.work, SMALL_CATALOG);
    const setup = (dir) => ({ env: ctx.fixtures.homesEnv(dir), flags: ['--workspace', join(dir, 'workspace')] });
    return { big: setup(big.dir), small: setup(small.dir) };
  })();
  return inputs;
}

export default {
  id: 'catalog',
  order: 40,
  runs: 5,
  async run(ctx) {
    const { big, small } = await catalogs(ctx);
    for (const [c, n] of [
      [big, 10_000],
      [small, 10],
    ]) {
      const listed = JSON.parse(
        (await ctx.run(ctx.hookctl('hooks', 'list', '-o', 'json', ...c.flags), { env: c.env, capture: true })).stdout,
      );
      if (listed.length !== n) throw new Error(`catalog: expected ${n} declarations listed, got ${listed.length}`);
    }
    const r = await ctx.cleanRatio(
      this,
      { cmd: ctx.hookctl('hooks', 'list', ...big.flags), env: big.env },
      { cmd: ctx.hookctl('hooks', 'list', ...small.flags), env: small.env },
    );
    return [
      ctx.row({
        id: 'catalog-wall',
        figure: '`hooks list`, 10,000 declarations (2,000 in config.toml + 4,000 SKILL.md): wall time',
        unit: 'ms',
        median: r.a.median,
        min: r.a.min,
        max: r.a.max,
        target: { op: '<=', value: 1000 },
      }),
      ctx.row({
        id: 'catalog-ratio',
        figure: '`hooks list`: 10,000 declarations ÷ 10 declarations',
        unit: '×',
        median: r.ratio,
        min: r.ratios.min,
        max: r.ratios.max,
        detail: `10,000 ${ctx.spread(r.a)} vs 10 ${ctx.spread(r.b)} (ratio of medians ${r.ratioOfMedians.toFixed(2)})`,
      }),
    ];
  },
};
