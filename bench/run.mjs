#!/usr/bin/env node
// hookctl's benchmark suite (issue 5, SPEC §7). Run with `npm run bench`.
//
//   node bench/run.mjs [--smoke] [--runs N] [--warmup N] [--only startup,dispatch,ledger,catalog,memory,hooktest]
//                      [--build | --no-build] [--check]
//
// Every figure is measured side by side in one run: the two commands of a ratio alternate, each
// `--runs` times after one unrecorded warm-up round (default 10 for the sub-second start-up and
// ledger figures, 5 for the others, 3 for peak memory). A ratio is the median of the per-round
// ratios (two runs moments apart), with their min–max; times are medians with min–max.
// `--smoke` runs everything once with no pass/fail on time (CI keeps the scripts alive with it).
// `--check` exits 1 when a target is missed. Inputs are generated into bench/.work/ (the big
// ones once, then reused); the results also go to bench/.work/results.json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compare, peakRss, rssMethod, run, stats } from './lib/measure.mjs';
import {
  catalogWorkspace,
  claudeDispatchHome,
  demoCopy,
  dispatchHome,
  floodHome,
  homesEnv,
  ledgerHome,
  onGenerate,
} from './lib/fixtures.mjs';
import { detailLines, machine, markdownTable, row } from './lib/report.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = join(root, 'bench', '.work');
const FIGURES = ['startup', 'dispatch', 'ledger', 'catalog', 'memory', 'hooktest'];

const { values: opts } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    runs: { type: 'string' },
    warmup: { type: 'string' },
    only: { type: 'string' },
    build: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
  },
});
const smoke = opts.smoke;
const DEFAULT_RUNS = { startup: 10, dispatch: 5, ledger: 10, catalog: 5, memory: 3, hooktest: 5 };
/** Runs per command for one figure: --runs, else 1 for a smoke, else the figure's default. */
const runsFor = (figure) => (opts.runs ? Number(opts.runs) : smoke ? 1 : DEFAULT_RUNS[figure]);
const warmup = opts.warmup ? Number(opts.warmup) : smoke ? 0 : 1;
const only = opts.only ? opts.only.split(',') : FIGURES;
for (const f of only) if (!FIGURES.includes(f)) throw new Error(`unknown figure "${f}" (known: ${FIGURES.join(', ')})`);

const node = process.execPath;
const hookctl = (...args) => [node, join(root, 'bin', 'run.js'), ...args];
const log = (text) => process.stderr.write(`bench: ${text}\n`);

// ---- build ----

/** Newest modification time under `path` (files only). */
function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

function buildIsCurrent() {
  const manifest = join(root, 'oclif.manifest.json'); // written last by the build
  if (!existsSync(manifest) || !existsSync(join(root, 'dist'))) return false;
  const inputs = ['src', 'package.json', 'tsconfig.json', join('scripts', 'build.mjs')].map((p) =>
    newest(join(root, p)),
  );
  return statSync(manifest).mtimeMs >= Math.max(...inputs);
}

if (opts.build || (!opts['no-build'] && !buildIsCurrent())) {
  log('building (npm run build)');
  execFileSync(node, [join(root, 'scripts', 'build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
}

// ---- figures ----

const cpuNote = (r) =>
  r.cpuRatios
    ? `; CPU time (user+sys) ratio ${r.cpuRatios.median.toFixed(2)} (${r.cpuRatios.min.toFixed(2)}–${r.cpuRatios.max.toFixed(2)})`
    : '';
const spread = (r) => `${r.median.toFixed(0)} ms (${r.min.toFixed(0)}–${r.max.toFixed(0)})`;

/** The ratio row of a dispatch figure: fire ÷ the Node baseline, target 1.3×. */
function dispatchRatioRow(id, figure, r) {
  return row({
    id,
    figure,
    unit: '×',
    median: r.ratio,
    min: r.ratios.min,
    max: r.ratios.max,
    target: { op: '<=', value: 1.3 },
    detail: `hookctl ${spread(r.a)} vs node ${spread(r.b)} (ratio of medians ${r.ratioOfMedians.toFixed(2)})${cpuNote(r)}`,
  });
}

/** 1. Start-up of the read commands on the demo ÷ `node -e 0`. */
async function startup() {
  const demo = await demoCopy(root, work);
  const base = { cmd: [node, '-e', '0'], env: demo.env };
  const cases = [
    ['startup-list', 'start-up: `hooks list -o json` ÷ `node -e 0`', ['hooks', 'list', '-o', 'json', ...demo.flags]],
    ['startup-runs', 'start-up: `hooks runs` ÷ `node -e 0`', ['hooks', 'runs']],
    ['startup-events', 'start-up: `hooks events` ÷ `node -e 0`', ['hooks', 'events']],
    [
      'startup-info',
      'start-up: `hooks info block-secret-file-edits` ÷ `node -e 0`',
      ['hooks', 'info', 'block-secret-file-edits', ...demo.flags],
    ],
  ];
  // Sanity: the commands do their real work (not an error path).
  const listed = JSON.parse(
    (await run(hookctl('hooks', 'list', '-o', 'json', ...demo.flags), { env: demo.env, capture: true })).stdout,
  );
  if (!Array.isArray(listed) || listed.length < 10)
    throw new Error('startup: the demo lists fewer hooks than expected');
  const ran = JSON.parse((await run(hookctl('hooks', 'runs', '-o', 'json'), { env: demo.env, capture: true })).stdout);
  if (ran.length !== 100) throw new Error(`startup: expected 100 demo runs, got ${ran.length}`);

  const rows = [];
  for (const [id, figure, args] of cases) {
    const r = await compare({ cmd: hookctl(...args), env: demo.env }, base, {
      runs: runsFor('startup'),
      warmup,
      cpu: true,
    });
    rows.push(
      row({
        id,
        figure,
        unit: '×',
        median: r.ratio,
        min: r.ratios.min,
        max: r.ratios.max,
        target: { op: '<=', value: 3 },
        detail: `hookctl ${spread(r.a)} vs node ${spread(r.b)} (ratio of medians ${r.ratioOfMedians.toFixed(2)})${cpuNote(r)}`,
      }),
    );
  }
  return rows;
}

/** 2. `hooks fire` of 200 sync hooks running `true` ÷ Node spawning the same 200 commands. */
async function dispatch() {
  const count = 200;
  const { dir } = await dispatchHome(work, count);
  const env = homesEnv(dir);
  rmSync(join(env.COMPOZY_HOME, 'sessions'), { recursive: true, force: true });
  const payloadFile = join(dir, 'payload.json');
  writeFileSync(
    payloadFile,
    JSON.stringify({ prompt: 'benchmark', input_class: 'user', session_id: 'bench-dispatch' }) + '\n',
  );
  const fire = {
    cmd: hookctl(
      'hooks',
      'fire',
      'prompt.post_assemble',
      '--payload',
      payloadFile,
      '-o',
      'json',
      '--workspace',
      join(dir, 'workspace'),
    ),
    env,
  };
  const baseline = {
    cmd: [node, join(root, 'bench', 'lib', 'spawn-baseline.mjs'), String(count), payloadFile, 'true'],
    env,
  };

  const result = JSON.parse((await run(fire.cmd, { ...fire, capture: true })).stdout);
  const applied = result.runs?.filter((r) => r.outcome === 'applied').length;
  if (applied !== count)
    throw new Error(`dispatch: expected ${count} applied runs, got ${applied} (verdict ${result.verdict})`);

  const r = await compare(fire, baseline, { runs: runsFor('dispatch'), warmup, cpu: true });
  return [
    dispatchRatioRow(
      'dispatch-ratio',
      `dispatch: \`hooks fire\` of ${count} sync hooks (\`true\`) ÷ plain Node spawning them`,
      r,
    ),
    row({
      id: 'dispatch-per-hook',
      figure: `dispatch: overhead per hook ((fire − baseline) ÷ ${count}, start-up included)`,
      unit: 'ms',
      median: r.differences.median / count,
      min: r.differences.min / count,
      max: r.differences.max / count,
      detail: `median of the per-round differences, ${r.differences.median.toFixed(0)} ms, over ${count} hooks`,
    }),
  ];
}

/**
 * 2b. A claude `hooks fire` of 200 UserPromptSubmit command hooks (shell form, `true <n>`) ÷ Node
 * spawning the same 200 `/bin/sh -c` commands at once: claude hooks run in parallel (claude.md §5.1).
 */
async function claudeDispatch() {
  const count = 200;
  const { dir } = await claudeDispatchHome(work, count);
  const env = homesEnv(dir);
  rmSync(join(env.HOOKCTL_STATE_DIR, 'claude'), { recursive: true, force: true });
  const payloadFile = join(dir, 'payload.json');
  writeFileSync(payloadFile, JSON.stringify({ prompt: 'benchmark', session_id: 'bench-claude-dispatch' }) + '\n');
  const fire = {
    cmd: hookctl(
      'hooks',
      'fire',
      'UserPromptSubmit',
      '--dialect',
      'claude',
      '--payload',
      payloadFile,
      '-o',
      'json',
      '--workspace',
      join(dir, 'workspace'),
    ),
    env,
  };
  const baseline = {
    cmd: [
      node,
      join(root, 'bench', 'lib', 'spawn-baseline.mjs'),
      '--parallel',
      String(count),
      payloadFile,
      '/bin/sh',
      '-c',
      'true 000',
    ],
    env,
  };
  const result = JSON.parse((await run(fire.cmd, { ...fire, capture: true })).stdout);
  const applied = result.runs?.filter((r) => r.outcome === 'applied').length;
  if (result.dialect !== 'claude' || applied !== count)
    throw new Error(
      `claude dispatch: expected ${count} applied claude runs, got ${applied} (dialect ${result.dialect}, verdict ${result.verdict})`,
    );

  const r = await compare(fire, baseline, { runs: runsFor('dispatch'), warmup, cpu: true });
  return [
    dispatchRatioRow(
      'dispatch-claude-ratio',
      `dispatch (claude): \`hooks fire\` of ${count} parallel command hooks (\`sh -c true\`) ÷ plain Node spawning them at once`,
      r,
    ),
  ];
}

/** 3. `hooks runs --last 20` on a 1,000,000-record log ÷ on a 100-record log. */
async function ledger() {
  const big = await ledgerHome(work, 1_000_000);
  const small = await ledgerHome(work, 100);
  const bigEnv = homesEnv(big.dir);
  const smallEnv = homesEnv(small.dir);
  for (const env of [bigEnv, smallEnv]) {
    const last = JSON.parse(
      (await run(hookctl('hooks', 'runs', '--last', '20', '-o', 'json'), { env, capture: true })).stdout,
    );
    if (last.length !== 20) throw new Error(`ledger: expected 20 records, got ${last.length}`);
  }
  const r = await compare(
    { cmd: hookctl('hooks', 'runs', '--last', '20'), env: bigEnv },
    { cmd: hookctl('hooks', 'runs', '--last', '20'), env: smallEnv },
    { runs: runsFor('ledger'), warmup },
  );
  return [
    row({
      id: 'ledger-ratio',
      figure: '`hooks runs --last 20`: 1,000,000-record log ÷ 100-record log',
      unit: '×',
      median: r.ratio,
      min: r.ratios.min,
      max: r.ratios.max,
      target: { op: '<=', value: 1.2 },
      detail: `1M records ${spread(r.a)} vs 100 records ${spread(r.b)} (ratio of medians ${r.ratioOfMedians.toFixed(2)})`,
    }),
  ];
}

const BIG_CATALOG = { configCount: 2000, skillCount: 4000, perSkill: 2 };
const SMALL_CATALOG = { configCount: 2, skillCount: 4, perSkill: 2 };

let catalogInputs;

/** The 10,000- and 10-declaration workspaces (figures 4 and 5 share them). */
function catalogs() {
  catalogInputs ??= (async () => {
    const big = await catalogWorkspace(root, work, BIG_CATALOG);
    const small = await catalogWorkspace(root, work, SMALL_CATALOG);
    const setup = (dir) => ({ env: homesEnv(dir), flags: ['--workspace', join(dir, 'workspace')] });
    return { big: setup(big.dir), small: setup(small.dir) };
  })();
  return catalogInputs;
}

/** 4. `hooks list` over 10,000 declarations: wall time, and its ratio to a 10-declaration workspace. */
async function catalog() {
  const { big, small } = await catalogs();
  for (const [c, n] of [
    [big, 10_000],
    [small, 10],
  ]) {
    const listed = JSON.parse(
      (await run(hookctl('hooks', 'list', '-o', 'json', ...c.flags), { env: c.env, capture: true })).stdout,
    );
    if (listed.length !== n) throw new Error(`catalog: expected ${n} declarations listed, got ${listed.length}`);
  }
  const r = await compare(
    { cmd: hookctl('hooks', 'list', ...big.flags), env: big.env },
    { cmd: hookctl('hooks', 'list', ...small.flags), env: small.env },
    { runs: runsFor('catalog'), warmup },
  );
  return [
    row({
      id: 'catalog-wall',
      figure: '`hooks list`, 10,000 declarations (2,000 in config.toml + 4,000 SKILL.md): wall time',
      unit: 'ms',
      median: r.a.median,
      min: r.a.min,
      max: r.a.max,
      target: { op: '<=', value: 1000 },
    }),
    row({
      id: 'catalog-ratio',
      figure: '`hooks list`: 10,000 declarations ÷ 10 declarations',
      unit: '×',
      median: r.ratio,
      min: r.ratios.min,
      max: r.ratios.max,
      detail: `10,000 ${spread(r.a)} vs 10 ${spread(r.b)} (ratio of medians ${r.ratioOfMedians.toFixed(2)})`,
    }),
  ];
}

/** 5. Peak RSS of `hooks list` at 10,000 declarations, and of `hooks fire` while a hook writes 1 GiB. */
async function memory() {
  const { big } = await catalogs();
  const gib = 1024 ** 3;
  const { dir } = await floodHome(work, gib);
  const floodEnv = homesEnv(dir);
  rmSync(join(floodEnv.COMPOZY_HOME, 'sessions'), { recursive: true, force: true });
  const payloadFile = join(dir, 'payload.json');
  writeFileSync(payloadFile, JSON.stringify({ prompt: 'benchmark', session_id: 'bench-flood' }) + '\n');
  const memoryRuns = runsFor('memory');

  const listMb = [];
  const fireMb = [];
  for (let i = 0; i < memoryRuns; i++) {
    const list = await peakRss({ cmd: hookctl('hooks', 'list', ...big.flags), env: big.env });
    listMb.push(list.mb);
    const fire = await peakRss({
      cmd: hookctl(
        'hooks',
        'fire',
        'prompt.post_assemble',
        '--payload',
        payloadFile,
        '-o',
        'json',
        '--workspace',
        join(dir, 'workspace'),
      ),
      env: floodEnv,
      capture: true,
    });
    const result = JSON.parse(fire.stdout);
    const bytes = result.runs?.[0]?.stdout_bytes;
    if (bytes !== gib) throw new Error(`memory: the flood hook's stdout_bytes is ${bytes}, expected ${gib}`);
    fireMb.push(fire.mb);
  }
  const l = stats(listMb);
  const f = stats(fireMb);
  return [
    row({
      id: 'memory-list',
      figure: 'peak RSS: `hooks list`, 10,000 declarations',
      unit: 'MB',
      ...l,
      target: { op: '<', value: 150 },
      detail: `${memoryRuns} run(s), measured with ${rssMethod()}`,
    }),
    row({
      id: 'memory-fire',
      figure: 'peak RSS: `hooks fire` while a hook writes 1 GiB to stdout',
      unit: 'MB',
      ...f,
      target: { op: '<', value: 100 },
      detail: `${memoryRuns} run(s), measured with ${rssMethod()}`,
    }),
  ];
}

/**
 * 6. `hooks test`: what a case costs beyond the hooks it runs (SPEC §11: at most 5 ms). Each case
 * fires prompt.post_assemble with one sync hook running `true`. A file of N cases and a file of
 * one are each measured against Node spawning `true` as often; the difference of those two
 * differences, over N − 1, is the cost of one more case with start-up and the hooks taken out.
 */
async function hooktest() {
  const count = 100;
  const { dir } = await dispatchHome(work, 1);
  const env = homesEnv(dir);
  const payloadFile = join(dir, 'payload.json');
  writeFileSync(payloadFile, JSON.stringify({ prompt: 'benchmark', input_class: 'user' }) + '\n');
  const testFile = (n) => {
    const file = join(dir, `bench-${n}.hooktest.yaml`);
    const oneCase = (i) =>
      `  - name: case ${i}\n    event: prompt.post_assemble\n    payload: { prompt: benchmark, input_class: user }\n    expect: { verdict: completed, ran: [true-000] }\n`;
    writeFileSync(file, `workspace: workspace\ncases:\n${Array.from({ length: n }, (_, i) => oneCase(i)).join('')}`);
    return file;
  };
  const tests = (n) => ({ cmd: hookctl('hooks', 'test', testFile(n), '--format', 'json'), env });
  const spawns = (n) => ({
    cmd: [node, join(root, 'bench', 'lib', 'spawn-baseline.mjs'), String(n), payloadFile, 'true'],
    env,
  });

  const sanity = JSON.parse((await run(tests(count).cmd, { env, capture: true })).stdout);
  if (sanity.passed !== count || sanity.failed !== 0)
    throw new Error(`hooktest: expected ${count} passing cases, got ${sanity.passed} passed, ${sanity.failed} failed`);

  const many = await compare(tests(count), spawns(count), { runs: runsFor('hooktest'), warmup, cpu: true });
  const one = await compare(tests(1), spawns(1), { runs: runsFor('hooktest'), warmup, cpu: true });
  const perCase = (a, b) => (a - b) / (count - 1);
  return [
    row({
      id: 'hooktest-per-case',
      figure: `\`hooks test\`: overhead per case beyond its hook (${count} cases vs 1, each against Node spawning the same hooks)`,
      unit: 'ms',
      median: perCase(many.differences.median, one.differences.median),
      min: perCase(many.differences.min, one.differences.max),
      max: perCase(many.differences.max, one.differences.min),
      target: { op: '<=', value: 5 },
      detail: `${count} cases ${spread(many.a)} vs ${count} spawns ${spread(many.b)}; 1 case ${spread(one.a)} vs 1 spawn ${spread(one.b)}`,
    }),
  ];
}

// ---- main ----

const started = Date.now();
mkdirSync(work, { recursive: true });
onGenerate(log);
const env = machine();
log(
  `${env.nproc} cores, ${env.cpu}, Node ${env.node}, load ${env.loadavg.join(' ')}; warm-up ${warmup}${smoke ? ' (smoke: one run each)' : ''}`,
);
const rows = [];
const steps = {
  startup,
  dispatch: async () => [...(await dispatch()), ...(await claudeDispatch())],
  ledger,
  catalog,
  memory,
  hooktest,
};
for (const name of FIGURES) {
  if (!only.includes(name)) continue;
  const t = Date.now();
  log(`${name} ...`);
  rows.push(...(await steps[name]()));
  log(`${name} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

const table = markdownTable(rows, { smoke });
const details = detailLines(rows);
process.stdout.write(`${table}\n\n${details.join('\n')}\n`);
const loadAfter = machine().loadavg;
process.stdout.write(
  `\nMachine: ${env.nproc} cores, ${env.cpu}, Node ${env.node}, ${env.os}; load average before ${env.loadavg.join(' ')}, after ${loadAfter.join(' ')}.\n` +
    `Runs per command: ${only.map((f) => `${f} ${runsFor(f)}`).join(', ')} (+${warmup} warm-up)${smoke ? '; smoke: no pass/fail on time' : ''}. Total ${((Date.now() - started) / 1000).toFixed(0)} s.\n`,
);
writeFileSync(
  join(work, 'results.json'),
  JSON.stringify(
    {
      date: new Date().toISOString(),
      smoke,
      runs: Object.fromEntries(only.map((f) => [f, runsFor(f)])),
      warmup,
      machine: { ...env, loadavgAfter: loadAfter },
      rows,
    },
    null,
    2,
  ) + '\n',
);
if (opts.check && !smoke && rows.some((r) => r.met === false)) process.exitCode = 1;
