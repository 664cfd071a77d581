#!/usr/bin/env node
// hookctl's benchmark suite (SPEC §11, docs/PERFORMANCE.md). Run with `npm run bench`.
//
//   node bench/run.mjs [--smoke] [--runs N] [--warmup N] [--only startup,dispatch,...]
//                      [--dialects compozy,cosh] [--inherited-env] [--build | --no-build] [--check]
//
// The figures are the modules in bench/figures/ (each default-exports { id, order, runs, run });
// a new figure is a new file there, and a new dialect's dispatch entry a new file in
// bench/dialects/ (bench/figures/README.md). Every figure is measured side by side in one run:
// the two commands of a ratio alternate, each `--runs` times after one unrecorded warm-up round.
// A ratio is the median of the per-round ratios (two runs moments apart), with their min–max.
//
// Environment (bench/lib/env.mjs): every command runs in the clean environment, the inherited
// one without its NODE_* variables (NODE_EXTRA_CA_CERTS, NODE_OPTIONS, …), on both sides of a
// ratio. `--inherited-env` measures the start-up and dispatch ratios again in the environment as
// inherited, in rows marked so. `--smoke` runs everything once with no pass/fail on time (CI
// keeps the scripts alive with it). `--check` exits 1 when a target is missed. Inputs are
// generated into bench/.work/ (the big ones once, then reused); the results also go to
// bench/.work/results.json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildIsCurrent } from '../scripts/build-stamp.mjs';
import { makeContext } from './lib/context.mjs';
import { environmentModes, environmentNote } from './lib/env.mjs';
import { onGenerate } from './lib/fixtures.mjs';
import { detailLines, machine, markdownTable } from './lib/report.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = join(root, 'bench', '.work');
const log = (text) => process.stderr.write(`bench: ${text}\n`);

const { values: opts } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    runs: { type: 'string' },
    warmup: { type: 'string' },
    only: { type: 'string' },
    dialects: { type: 'string' },
    'inherited-env': { type: 'boolean', default: false },
    build: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
  },
});
const smoke = opts.smoke;

/** Every figure module of bench/figures/, in their order. */
async function loadFigures() {
  const folder = join(root, 'bench', 'figures');
  const figures = [];
  for (const name of readdirSync(folder).filter((f) => f.endsWith('.mjs'))) {
    const figure = (await import(pathToFileURL(join(folder, name)).href)).default;
    if (!figure || typeof figure.id !== 'string' || typeof figure.run !== 'function')
      throw new Error(`bench/figures/${name}: default export must be { id, order, runs, run }`);
    figures.push(figure);
  }
  return figures.sort((a, b) => (a.order ?? 1000) - (b.order ?? 1000) || a.id.localeCompare(b.id));
}

const figures = await loadFigures();
const known = figures.map((f) => f.id);
const only = opts.only ? opts.only.split(',') : known;
for (const f of only) if (!known.includes(f)) throw new Error(`unknown figure "${f}" (known: ${known.join(', ')})`);
/** Runs per command for one figure: --runs, else 1 for a smoke, else the figure's default. */
const runsFor = (figure) => (opts.runs ? Number(opts.runs) : smoke ? 1 : (figure.runs ?? 5));
const warmup = opts.warmup ? Number(opts.warmup) : smoke ? 0 : 1;
const environments = environmentModes({ inherited: opts['inherited-env'] });

// ---- build ----

// The same check as `npm run demo` and `npm run fuzz` (scripts/build-stamp.mjs): the build's
// inputs hashed against the stamp the last build wrote.
if (opts.build || (!opts['no-build'] && !buildIsCurrent(root))) {
  log('building (npm run build)');
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
}

// ---- main ----

const started = Date.now();
mkdirSync(work, { recursive: true });
onGenerate(log);
const env = machine();
log(
  `${env.nproc} cores, ${env.cpu}, Node ${env.node}, load ${env.loadavg.join(' ')}; warm-up ${warmup}${smoke ? ' (smoke: one run each)' : ''}`,
);
log(environmentNote(environments));
const ctx = makeContext({
  root,
  work,
  smoke,
  warmup,
  runsFor,
  modes: environments.modes,
  log,
  dialects: opts.dialects?.split(','),
});
const rows = [];
for (const figure of figures) {
  if (!only.includes(figure.id)) continue;
  const t = Date.now();
  log(`${figure.id} ...`);
  rows.push(...(await figure.run(ctx)));
  log(`${figure.id} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

const table = markdownTable(rows, { smoke });
const details = detailLines(rows);
const loadAfter = machine().loadavg;
process.stdout.write(
  `${environmentNote(environments)}\n\n${table}\n\n${details.join('\n')}\n` +
    `\nMachine: ${env.nproc} cores, ${env.cpu}, Node ${env.node}, ${env.os}; load average before ${env.loadavg.join(' ')}, after ${loadAfter.join(' ')}.\n` +
    `Runs per command: ${figures
      .filter((f) => only.includes(f.id))
      .map((f) => `${f.id} ${runsFor(f)}`)
      .join(
        ', ',
      )} (+${warmup} warm-up)${smoke ? '; smoke: no pass/fail on time' : ''}. Total ${((Date.now() - started) / 1000).toFixed(0)} s.\n`,
);
writeFileSync(
  join(work, 'results.json'),
  JSON.stringify(
    {
      date: new Date().toISOString(),
      smoke,
      runs: Object.fromEntries(figures.filter((f) => only.includes(f.id)).map((f) => [f.id, runsFor(f)])),
      warmup,
      environment: { removed: environments.removed, modes: environments.modes.map((m) => m.label) },
      machine: { ...env, loadavgAfter: loadAfter },
      rows,
    },
    null,
    2,
  ) + '\n',
);
if (opts.check && !smoke && rows.some((r) => r.met === false)) process.exitCode = 1;
