// Dispatch of 200 sync hooks by `hooks fire` ÷ Node spawning the same 200 commands directly
// (SPEC §11: ≤ 1.3×, every dialect). One entry per dialect, from bench/dialects/*.mjs: a
// dialect says how to set up its home, what to fire and how it runs a command, and this
// figure measures them all the same way.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const COUNT = 200;
const here = dirname(fileURLToPath(import.meta.url));

/** Every dialect entry in bench/dialects/, by name. */
export async function loadDialects() {
  const folder = join(here, '..', 'dialects');
  const names = readdirSync(folder)
    .filter((f) => f.endsWith('.mjs'))
    .sort();
  const entries = [];
  for (const name of names) entries.push((await import(pathToFileURL(join(folder, name)).href)).default);
  // By `order` (compozy, cosh, claude, then any new one), then name.
  return entries.sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || a.name.localeCompare(b.name));
}

export default {
  id: 'dispatch',
  order: 20,
  runs: 5,
  async run(ctx) {
    const rows = [];
    for (const dialect of await loadDialects()) {
      if (ctx.dialects && !ctx.dialects.includes(dialect.name)) continue;
      ctx.log(`dispatch: ${dialect.name}`);
      const setup = await dialect.setup(ctx, COUNT);
      const fire = { cmd: ctx.hookctl('hooks', 'fire', ...setup.fireArgs, '-o', 'json'), env: setup.env };
      const baseline = {
        cmd: [
          ctx.node,
          join(ctx.root, 'bench', 'lib', 'spawn-baseline.mjs'),
          ...(setup.baselineFlags ?? []),
          String(COUNT),
          setup.payloadFile,
          ...setup.baselineCommand,
        ],
        env: setup.env,
      };
      // The fire runs every hook (a broken fire must not pass as a fast one).
      const result = JSON.parse((await ctx.run(fire.cmd, { ...fire, capture: true })).stdout);
      setup.check(result, COUNT);
      const kind = dialect.parallel ? 'parallel' : 'sync';
      rows.push(
        ...(await ctx.ratioRows(this, fire, baseline, { cpu: true }, (r) => [
          ctx.row({
            id: `dispatch-${dialect.name}-ratio`,
            figure: `dispatch (${dialect.name}): \`hooks fire\` of ${COUNT} ${kind} hooks ÷ plain Node spawning the same commands${dialect.parallel ? ' at once' : ''}`,
            unit: '×',
            median: r.ratio,
            min: r.ratios.min,
            max: r.ratios.max,
            target: { op: '<=', value: 1.3 },
            detail: `${dialect.describe(COUNT)}; hookctl ${ctx.spread(r.a)} vs node ${ctx.spread(r.b)} (ratio of medians ${r.ratioOfMedians.toFixed(2)})${ctx.cpuNote(r)}`,
            extra: { hookctlMs: r.a.median, baselineMs: r.b.median, cpuRatio: r.cpuRatios?.median },
          }),
          // Hooks run one after another have an overhead per hook; parallel ones have none.
          ...(dialect.parallel
            ? []
            : [
                ctx.row({
                  id: `dispatch-${dialect.name}-per-hook`,
                  figure: `dispatch (${dialect.name}): overhead per hook ((fire − baseline) ÷ ${COUNT}, start-up included)`,
                  unit: 'ms',
                  median: r.differences.median / COUNT,
                  min: r.differences.min / COUNT,
                  max: r.differences.max / COUNT,
                  detail: `median of the per-round differences, ${r.differences.median.toFixed(0)} ms, over ${COUNT} hooks`,
                }),
              ]),
        ])),
      );
    }
    return rows;
  },
};
