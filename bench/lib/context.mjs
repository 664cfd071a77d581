// What a figure module (bench/figures/*.mjs) is handed: the measuring primitives bound to this
// run's options and environments, so a new figure is a few lines. See bench/figures/README.md.
import { join } from 'node:path';
import { cleanEnv } from './env.mjs';
import * as fixtures from './fixtures.mjs';
import { compare, peakRss, rssMethod, run, stats } from './measure.mjs';
import { row } from './report.mjs';

export const spread = (r) => `${r.median.toFixed(0)} ms (${r.min.toFixed(0)}–${r.max.toFixed(0)})`;

export const cpuNote = (r) =>
  r.cpuRatios
    ? `; CPU time (user+sys) ratio ${r.cpuRatios.median.toFixed(2)} (${r.cpuRatios.min.toFixed(2)}–${r.cpuRatios.max.toFixed(2)})`
    : '';

/**
 * @param {object} o
 * @param {string} o.root the repository
 * @param {string} o.work bench/.work
 * @param {boolean} o.smoke
 * @param {number} o.warmup
 * @param {(figure: object) => number} o.runsFor rounds per command for a figure
 * @param {{ name: string, label: string, apply: (env: object) => object }[]} o.modes
 * @param {(text: string) => void} o.log
 */
export function makeContext({ root, work, smoke, warmup, runsFor, modes, log, dialects }) {
  const node = process.execPath;
  return {
    root,
    work,
    node,
    smoke,
    warmup,
    log,
    fixtures,
    stats,
    row,
    spread,
    cpuNote,
    rssMethod,
    /** A row for a figure measured `values.length` times: median, min and max of `values`. */
    statsRow: (values, fields) => row({ ...fields, ...stats(values) }),
    /** The detail line of a peak-RSS row: how many runs, and how the peak was read. */
    rssDetail: (values) => `${values.length} run(s), measured with ${rssMethod()}`,
    /** Which dialects' dispatch to measure (`--dialects`), or undefined for all. */
    dialects,
    /** argv of the built CLI. */
    hookctl: (...args) => [node, join(root, 'bin', 'run.js'), ...args],
    /** The clean environment over `env` (every figure's default: no NODE_* variable). */
    env: (env) => cleanEnv(env),
    /** One run of `cmd` in the clean environment; `opts` as measure.mjs's run(). */
    run: (cmd, opts) => run(cmd, { ...opts, env: cleanEnv(opts.env) }),
    /** Peak RSS of one run, in the clean environment. */
    peakRss: (a) => peakRss({ ...a, env: cleanEnv(a.env) }),
    /** Rounds per command for `figure` (--runs, or 1 for a smoke, or the figure's own). */
    runsFor,
    /**
     * Times `a` against `b` side by side in each environment mode (clean always; inherited with
     * --inherited-env), and returns one row per mode from `makeRow(result, mode)`. Both sides of
     * a round always run in the same environment.
     */
    async ratioRows(figure, a, b, { cpu = false } = {}, makeRow) {
      const rows = [];
      for (const mode of modes) {
        const r = await compare(
          { ...a, env: mode.apply(a.env) },
          { ...b, env: mode.apply(b.env) },
          { runs: runsFor(figure), warmup, cpu },
        );
        for (const made of [makeRow(r, mode)].flat()) rows.push({ ...made, env: mode.label });
      }
      return rows;
    },
    /** Only the clean mode: a figure that compares two hookctl runs (no `node -e 0` in it). */
    async cleanRatio(figure, a, b, { cpu = false } = {}) {
      return compare(
        { ...a, env: cleanEnv(a.env) },
        { ...b, env: cleanEnv(b.env) },
        { runs: runsFor(figure), warmup, cpu },
      );
    },
  };
}
