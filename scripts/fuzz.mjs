#!/usr/bin/env node
// Long fuzz runs: the same test as CI (test/reliability/fuzz.test.ts) with more cases or another
// seed. CI runs 420 cases with the fixed seed; this runs what you ask for.
//
//   npm run fuzz                          # 7000 cases, seed from the clock (printed)
//   npm run fuzz -- --cases 50000 --seed 42
//   npm run fuzz -- --seed 20261129       # replay CI's cases
//
// A failure names its case (`HOOKCTL_FUZZ_SEED=<seed> case <format>#<n> [operators]`), so the same
// seed reproduces it. Needs a build (`npm run fuzz` builds first).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = process.argv[i + 1];
  if (value === undefined || !/^[0-9]+$/.test(value)) {
    process.stderr.write(`fuzz: --${name} wants a whole number\n`);
    process.exit(2);
  }
  return value;
}

const cases = option('cases', '7000');
const seed = option('seed', String(Date.now() % 2 ** 31));
process.stdout.write(`fuzz: ${cases} cases, seed ${seed} (replay with --seed ${seed})\n`);

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const result = spawnSync(process.execPath, [vitest, 'run', 'test/reliability/fuzz.test.ts', '-t', 'fuzz: mutated'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, HOOKCTL_FUZZ_CASES: cases, HOOKCTL_FUZZ_SEED: seed, HOOKCTL_FIGURES: '1' },
});
process.exit(result.status ?? 1);
