// Peak RSS of `hooks test` at 500 and 10,000 cases (issue 24: it grew with the file, 367 MB at
// 10,000 in the issue). Each case fires prompt.post_assemble with one sync hook running `true`
// and checks its verdict and ran list. Target: 10,000 cases within 1.3× the peak of 500.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SMALL = 500;
const LARGE = 10_000;

export default {
  id: 'hooktest-memory',
  order: 75,
  runs: 3,
  async run(ctx) {
    const { dir } = await ctx.fixtures.dispatchHome(ctx.work, 1);
    const env = ctx.fixtures.homesEnv(dir);
    const testFile = (n) => {
      const file = join(dir, `memory-${n}.hooktest.yaml`);
      const oneCase = (i) =>
        `  - name: case ${i}\n    event: prompt.post_assemble\n    payload: { prompt: "benchmark ${i}", input_class: user }\n    expect: { verdict: completed, ran: [true-000] }\n`;
      writeFileSync(file, `workspace: workspace\ncases:\n${Array.from({ length: n }, (_, i) => oneCase(i)).join('')}`);
      return file;
    };
    const files = { [SMALL]: testFile(SMALL), [LARGE]: testFile(LARGE) };
    const cmd = (n) => ctx.hookctl('hooks', 'test', files[n], '--format', 'json');

    const peaks = { [SMALL]: [], [LARGE]: [] };
    for (let i = 0; i < ctx.runsFor(this); i++) {
      for (const n of [SMALL, LARGE]) {
        const r = await ctx.peakRss({ cmd: cmd(n), env, capture: true });
        // The command does its real work, so a broken one never passes as small.
        const report = JSON.parse(r.stdout);
        if (report.passed !== n || report.failed !== 0)
          throw new Error(
            `hooktest-memory: expected ${n} passing cases, got ${report.passed} passed, ${report.failed} failed`,
          );
        peaks[n].push(r.mb);
      }
    }
    const small = ctx.stats(peaks[SMALL]);
    const mb = (r) => `${r.median.toFixed(1)} MB (${r.min.toFixed(1)}–${r.max.toFixed(1)})`;
    const ratios = peaks[LARGE].map((mb, i) => mb / peaks[SMALL][i]);
    return [
      ctx.statsRow(peaks[LARGE], {
        id: 'hooktest-memory-10000',
        figure: `peak RSS: \`hooks test\`, ${LARGE.toLocaleString('en')} cases`,
        unit: 'MB',
        target: { op: '<=', value: Math.round(small.median * 1.3 * 10) / 10 },
        detail: `${ctx.rssDetail(peaks[LARGE])}; target 1.3× the ${SMALL}-case peak, ${mb(small)}`,
        extra: { small_mb: peaks[SMALL], large_mb: peaks[LARGE] },
      }),
      ctx.statsRow(ratios, {
        id: 'hooktest-memory-ratio',
        figure: `peak RSS: \`hooks test\`, ${LARGE.toLocaleString('en')} cases over ${SMALL} (same rounds)`,
        unit: '×',
        target: { op: '<=', value: 1.3 },
        detail: `${SMALL} cases: ${mb(small)}; ${LARGE.toLocaleString('en')}: ${mb(ctx.stats(peaks[LARGE]))}`,
      }),
    ];
  },
};
