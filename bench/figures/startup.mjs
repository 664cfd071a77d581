// Start-up of the read commands on the demo ÷ `node -e 0` (SPEC §11; issue 25: ≤ 2×, aim 1.5×),
// both sides in the same environment, clean by default (bench/lib/env.mjs): warm (the compile
// cache filled; a repeated command is answered from the answer cache, src/cli/answer-cache.ts),
// run (the answer cache off: the command's own work), cold (both caches off: every module
// compiled, as on a first run), the cost of an
// invocation the fast path hands over to oclif, and the same ratios in instructions
// (valgrind's callgrind, where installed, of the main thread: a loaded machine cannot move them).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
export default {
  id: 'startup',
  order: 10,
  runs: 10,
  async run(ctx) {
    const demo = await ctx.fixtures.demoCopy(ctx.root, ctx.work);
    // A cache folder of the figure's own, so a miss of the answer cache can be made (answersGone).
    const cacheDir = join(ctx.work, 'startup-cache');
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    demo.env = { ...demo.env, NODE_COMPILE_CACHE: cacheDir };
    const answersGone = () => {
      for (const version of readdirSync(cacheDir))
        for (const name of readdirSync(join(cacheDir, version)))
          if (name.startsWith('answer-')) rmSync(join(cacheDir, version, name));
    };
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
            target: { op: '<=', value: 2 },
            aim: 1.5,
            detail: `hookctl ${ctx.spread(r.a)} vs node ${ctx.spread(r.b)} (ratio of medians ${r.ratioOfMedians.toFixed(2)})${ctx.cpuNote(r)}`,
            extra: { hookctlMs: r.a.median, nodeMs: r.b.median, cpuRatio: r.cpuRatios?.median },
          }),
        )),
      );
    }
    // Run, not answered: the answer cache off (HOOKCTL_NO_ANSWER_CACHE), the compile cache warm —
    // what a run costs the first time after a declaration file changed (a miss also records).
    const runEnv = { ...demo.env, HOOKCTL_NO_ANSWER_CACHE: '1' };
    // Cold: no compile cache, so every module is compiled (NODE_DISABLE_COMPILE_CACHE).
    const coldEnv = { ...demo.env, NODE_DISABLE_COMPILE_CACHE: '1' };
    for (const [id, command, args, env] of [
      [`${cases[0][0]}-run`, `${cases[0][1]}, run (answer cache off)`, cases[0][2], runEnv],
      [`${cases[3][0]}-run`, `${cases[3][1]}, run (answer cache off)`, cases[3][2], runEnv],
      ['startup-list-cold', '`hooks list -o json`, cache off', cases[0][2], coldEnv],
      ['startup-events-cold', '`hooks events`, cache off', cases[2][2], coldEnv],
    ]) {
      const node = { cmd: [ctx.node, '-e', '0'], env };
      rows.push(
        ...(await ctx.ratioRows(this, { cmd: ctx.hookctl(...args), env }, node, {}, (r) =>
          ctx.row({
            id,
            figure: `start-up: ${command} ÷ \`node -e 0\``,
            unit: '×',
            median: r.ratio,
            min: r.ratios.min,
            max: r.ratios.max,
            detail: `hookctl ${ctx.spread(r.a)} vs node ${ctx.spread(r.b)}`,
            extra: { hookctlMs: r.a.median, nodeMs: r.b.median },
          }),
        )),
      );
    }
    // Handed over: a command the fast path does not run, against bin/run.js without the fast path.
    const before = [ctx.node, join(ctx.root, 'bench', 'lib', 'oclif-entry.cjs'), ...HANDED_OVER];
    const handed = await ctx.cleanRatio(
      this,
      { cmd: ctx.hookctl(...HANDED_OVER), env: demo.env },
      { cmd: before, env: demo.env },
    );
    rows.push(
      ctx.row({
        id: 'startup-handed-over',
        figure: 'start-up: `hooks sessions` (handed over to oclif), cost of the fast path',
        unit: 'ms',
        median: handed.differences.median,
        min: handed.differences.min,
        max: handed.differences.max,
        target: { op: '<=', value: 3 },
        detail: `with the fast path ${ctx.spread(handed.a)} vs without ${ctx.spread(handed.b)} (per-round differences)`,
        extra: { withMs: handed.a.median, withoutMs: handed.b.median },
      }),
    );
    if (!ctx.smoke) rows.push(...(await instructionRows(ctx, cases, demo.env, answersGone)));
    return rows;
  },
};

const M = (n) => `${((n ?? 0) / 1e6).toFixed(0)}M`;
const ratio = (n, node) => `${((n ?? 0) / node).toFixed(2)}×`;

/** A command the fast path hands over (not one of its four). */
const HANDED_OVER = ['hooks', 'sessions', '-o', 'json'];

/**
 * Instructions of one run's main thread under callgrind, or undefined without valgrind. The main
 * thread only: V8 optimises on a thread of its own (TurboFan), and how much of that work a short
 * run reaches before exit varies from run to run (0-13M instructions of `hooks list`, where
 * `node -e 0` has none), as the second core of the bench's machine does it beside the start.
 */
function instructions(ctx, cmd, env) {
  const dir = mkdtempSync(join(tmpdir(), 'hookctl-callgrind-'));
  try {
    spawnSync(
      'valgrind',
      ['--tool=callgrind', '--separate-threads=yes', `--callgrind-out-file=${join(dir, 'cg')}`, ...cmd],
      {
        env: ctx.env(env),
        encoding: 'utf8',
      },
    );
    // Thread 1 is the main thread: cg-01.
    const main = readdirSync(dir).find((f) => f.endsWith('-01'));
    if (main === undefined) return undefined;
    const m = /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, main), 'utf8'));
    return m ? Number(m[1]) : undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The warm ratios in instructions: one run each after a warm-up (the counts repeat to ~1 %). */
async function instructionRows(ctx, cases, env, answersGone) {
  // `node -e 0` itself counts 83–92M from run to run: the median of three.
  const nodeCounts = [0, 1, 2].map(() => instructions(ctx, [ctx.node, '-e', '0'], env));
  if (nodeCounts.includes(undefined)) return [];
  const node = nodeCounts.sort((a, b) => a - b)[1];
  const rows = [];
  for (const [id, command, args] of cases) {
    await ctx.run(ctx.hookctl(...args), { env }); // the cache warm
    const counts = [0, 1].map(() => instructions(ctx, ctx.hookctl(...args), env)).filter((n) => n !== undefined);
    // The same invocation on the oclif path (HOOKCTL_NO_FAST_PATH), as every run went before issue 25.
    const oclifEnv = { ...env, HOOKCTL_NO_FAST_PATH: '1' };
    await ctx.run(ctx.hookctl(...args), { env: oclifEnv });
    const oclif = instructions(ctx, ctx.hookctl(...args), oclifEnv);
    // A miss of the answer cache: the command run, its inputs recorded and its answer written.
    answersGone();
    const missed = instructions(ctx, ctx.hookctl(...args), env);
    const ran = instructions(ctx, ctx.hookctl(...args), { ...env, HOOKCTL_NO_ANSWER_CACHE: '1' });
    const ratios = counts.map((n) => n / node);
    rows.push(
      ctx.row({
        id: `${id}-instructions`,
        figure: `start-up: ${command} ÷ \`node -e 0\`, in main-thread instructions (callgrind)`,
        unit: '×',
        median: ratios.reduce((a, b) => a + b, 0) / ratios.length,
        min: Math.min(...ratios),
        max: Math.max(...ratios),
        target: { op: '<=', value: 2 },
        detail: `hookctl ${counts.map((n) => (n / 1e6).toFixed(0)).join(', ')}M vs node ${(node / 1e6).toFixed(0)}M instructions; run with the answer cache off ${M(ran)} (${ratio(ran, node)}), a miss (run, recorded, written) ${M(missed)} (${ratio(missed, node)}); on the oclif path ${M(oclif)} (${ratio(oclif, node)})`,
        extra: { hookctl: counts, node, oclif, ran, missed },
      }),
    );
  }
  // The hand-over in instructions, and in ms at `node -e 0`'s rate of instructions per ms.
  const before = [ctx.node, join(ctx.root, 'bench', 'lib', 'oclif-entry.cjs'), ...HANDED_OVER];
  await ctx.run(ctx.hookctl(...HANDED_OVER), { env });
  const withFast = instructions(ctx, ctx.hookctl(...HANDED_OVER), env);
  const without = instructions(ctx, before, env);
  const nodeMs = (await ctx.run([ctx.node, '-e', '0'], { env })).ms;
  if (withFast !== undefined && without !== undefined) {
    const ms = ((withFast - without) / node) * nodeMs;
    rows.push(
      ctx.row({
        id: 'startup-handed-over-instructions',
        figure:
          'start-up: `hooks sessions` (handed over to oclif), cost of the fast path, in main-thread instructions (callgrind)',
        unit: 'ms',
        median: ms,
        min: ms,
        max: ms,
        target: { op: '<=', value: 3 },
        detail: `${(withFast / 1e6).toFixed(1)}M vs ${(without / 1e6).toFixed(1)}M instructions without the fast path; ms at node -e 0's rate (${(node / 1e6).toFixed(0)}M in ${nodeMs.toFixed(0)} ms)`,
        extra: { withFast, without },
      }),
    );
  }
  return rows;
}
