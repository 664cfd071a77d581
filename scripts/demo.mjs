#!/usr/bin/env node
// The Quick start's main job: run hookctl on the bundled demo (fixtures/demo) the way a user
// would, printing each command before its output. Run records go to the demo homes' sessions/
// folders, which git ignores.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const demo = join(root, 'fixtures', 'demo');
const env = {
  ...process.env,
  COMPOZY_HOME: join(demo, 'home', '.compozy'),
  COSH_HOME: join(demo, 'home', '.copilot-shell'),
  COSH_SYSTEM_ROOT: join(demo, 'system'),
  CLAUDE_CONFIG_DIR: join(demo, 'claude', 'home', '.claude'),
  HOOKCTL_CLAUDE_MANAGED_DIR: join(demo, 'claude', 'managed'),
  // Claude Code runs go to a temporary state folder, removed at the end.
  HOOKCTL_STATE_DIR: mkdtempSync(join(tmpdir(), 'hookctl-demo-state-')),
};
const claude = ['--dialect', 'claude', '--workspace', 'fixtures/demo/claude/workspace'];
const claudePayload = (name) => ['--payload', `fixtures/demo/payloads/${name}.json`];
const where = ['--workspace', 'fixtures/demo/workspace', '--additional-dir', 'fixtures/demo/extra'];
// Each step with the exit code it must end with (fire's denials exit 1 and asks 4 by design).
const steps = [
  [['hooks', 'list', ...where], 0],
  [['hooks', 'validate', ...where], 0],
  [['hooks', 'fire', 'prompt.post_assemble', ...where, '--payload', 'fixtures/demo/payloads/prompt.json'], 0],
  [['hooks', 'fire', 'tool.pre_call', ...where, '--payload', 'fixtures/demo/payloads/tool-secret.json'], 1],
  [['hooks', 'fire', 'PreToolUse', ...where, '--payload', 'fixtures/demo/payloads/cosh-rm.json', '-o', 'jsonl'], 1],
  [['hooks', 'runs', '--session', 'sess_demo', '--last', '5'], 0],
  // Claude Code: a deny by exit 2, an ask, an updatedInput, an http hook, a timeout.
  [['hooks', 'fire', 'PreToolUse', ...claude, ...claudePayload('claude-rm')], 1],
  [['hooks', 'fire', 'PreToolUse', ...claude, ...claudePayload('claude-push')], 4],
  [['hooks', 'fire', 'PreToolUse', ...claude, ...claudePayload('claude-npm')], 0],
  [['hooks', 'fire', 'PreToolUse', ...claude, ...claudePayload('claude-write-env')], 1],
  [['hooks', 'fire', 'UserPromptSubmit', ...claude, ...claudePayload('claude-prompt'), '-o', 'jsonl'], 0],
  [['hooks', 'runs', '--session', 'claude_demo'], 0],
];
// The endpoint of the claude demo's http hook.
const server = spawn(process.execPath, [join(demo, 'servers', 'claude-hook-server.mjs')], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
await new Promise((ready) => server.stderr.once('data', ready));
let failed = 0;
for (const [args, expected] of steps) {
  process.stdout.write(`\n$ hookctl ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [join(root, 'bin', 'run.js'), ...args], { cwd: root, env, stdio: 'inherit' });
  if (r.status !== expected) {
    failed++;
    process.stdout.write(`(exit ${r.status}, expected ${expected})\n`);
  } else process.stdout.write(`(exit ${r.status})\n`);
}
server.kill();
rmSync(env.HOOKCTL_STATE_DIR, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
