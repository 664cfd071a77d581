#!/usr/bin/env node
// The Quick start's main job: run hookctl on the bundled demo (fixtures/demo) the way a user
// would, printing each command before its output. Run records go to the demo homes' sessions/
// folders, which git ignores.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const demo = join(root, 'fixtures', 'demo');
const env = {
  ...process.env,
  COMPOZY_HOME: join(demo, 'home', '.compozy'),
  COSH_HOME: join(demo, 'home', '.copilot-shell'),
  COSH_SYSTEM_ROOT: join(demo, 'system'),
};
const where = ['--workspace', 'fixtures/demo/workspace', '--additional-dir', 'fixtures/demo/extra'];
const steps = [
  ['hooks', 'list', ...where],
  ['hooks', 'validate', ...where],
  ['hooks', 'fire', 'prompt.post_assemble', ...where, '--payload', 'fixtures/demo/payloads/prompt.json'],
  ['hooks', 'fire', 'tool.pre_call', ...where, '--payload', 'fixtures/demo/payloads/tool-secret.json'],
  ['hooks', 'fire', 'PreToolUse', ...where, '--payload', 'fixtures/demo/payloads/cosh-rm.json', '-o', 'jsonl'],
  ['hooks', 'runs', '--session', 'sess_demo', '--last', '5'],
  // The demo's own tests (fixtures/demo/workspace/tests/): found in the workspace, run by the real engine.
  ['hooks', 'test', ...where],
];
let failed = 0;
for (const args of steps) {
  process.stdout.write(`\n$ hookctl ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [join(root, 'bin', 'run.js'), ...args], { cwd: root, env, stdio: 'inherit' });
  // fire's denials exit 1 by design; anything else non-zero is a failure of the demo.
  const expected = args[1] === 'fire' && !args.includes('prompt.post_assemble') ? 1 : 0;
  if (r.status !== expected) {
    failed++;
    process.stdout.write(`(exit ${r.status}, expected ${expected})\n`);
  } else process.stdout.write(`(exit ${r.status})\n`);
}
process.exit(failed ? 1 : 0);
