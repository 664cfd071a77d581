// `hooks test`: what a case costs beyond the hooks it runs (SPEC §11: at most 5 ms). Each case
// fires prompt.post_assemble with one sync hook running `true`. A file of N cases and a file of
// one are each measured against Node spawning `true` as often; the difference of those two
// differences, over N − 1, is the cost of one more case with start-up and the hooks taken out.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const COUNT = 100;

export default {
  id: 'hooktest',
  order: 70,
  runs: 5,
  async run(ctx) {
    const { dir } = await ctx.fixtures.dispatchHome(ctx.work, 1);
    const env = ctx.fixtures.homesEnv(dir);
    const payloadFile = join(dir, 'payload.json');
    writeFileSync(payloadFile, JSON.stringify({ prompt: 'benchmark', input_class: 'user' }) + '\n');
    const testFile = (n) => {
      const file = join(dir, `bench-${n}.hooktest.yaml`);
      const oneCase = (i) =>
        `  - name: case ${i}\n    event: prompt.post_assemble\n    payload: { prompt: benchmark, input_class: user }\n    expect: { verdict: completed, ran: [true-000] }\n`;
      writeFileSync(file, `workspace: workspace\ncases:\n${Array.from({ length: n }, (_, i) => oneCase(i)).join('')}`);
      return file;
    };
    const tests = (n) => ({ cmd: ctx.hookctl('hooks', 'test', testFile(n), '--format', 'json'), env });
    const spawns = (n) => ({
      cmd: [ctx.node, join(ctx.root, 'bench', 'lib', 'spawn-baseline.mjs'), String(n), payloadFile, 'true'],
      env,
    });

    // The command does its real work first, so a broken one never passes as fast.
    const sanity = JSON.parse((await ctx.run(tests(COUNT).cmd, { env, capture: true })).stdout);
    if (sanity.passed !== COUNT || sanity.failed !== 0)
      throw new Error(
        `hooktest: expected ${COUNT} passing cases, got ${sanity.passed} passed, ${sanity.failed} failed`,
      );

    const many = await ctx.cleanRatio(this, tests(COUNT), spawns(COUNT), { cpu: true });
    const one = await ctx.cleanRatio(this, tests(1), spawns(1), { cpu: true });
    const perCase = (a, b) => (a - b) / (COUNT - 1);
    return [
      ctx.row({
        id: 'hooktest-per-case',
        figure: `\`hooks test\`: overhead per case beyond its hook (${COUNT} cases vs 1, each against Node spawning the same hooks)`,
        unit: 'ms',
        median: perCase(many.differences.median, one.differences.median),
        min: perCase(many.differences.min, one.differences.max),
        max: perCase(many.differences.max, one.differences.min),
        target: { op: '<=', value: 5 },
        detail: `${COUNT} cases ${ctx.spread(many.a)} vs ${COUNT} spawns ${ctx.spread(many.b)}; 1 case ${ctx.spread(one.a)} vs 1 spawn ${ctx.spread(one.b)}`,
      }),
    ];
  },
};
