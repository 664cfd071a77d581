#!/usr/bin/env node
// The Quick start's main job: run hookctl on the bundled demo (fixtures/demo) the way a user
// would, printing each command before its output. Run records go to the demo homes' sessions/
// folders, fixtures/demo/claude/state/ and fixtures/demo/codex/state/, which git ignores.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const demo = join(root, 'fixtures', 'demo');
const claude = join(demo, 'claude');
const env = {
  ...process.env,
  COMPOZY_HOME: join(demo, 'home', '.compozy'),
  COSH_HOME: join(demo, 'home', '.copilot-shell'),
  COSH_SYSTEM_ROOT: join(demo, 'system'),
};
// The Claude Code setup has homes of its own: its PreToolUse must not meet cosh's.
const claudeEnv = {
  ...process.env,
  HOME: join(claude, 'home'),
  CLAUDE_CONFIG_DIR: join(claude, 'home', '.claude'),
  HOOKCTL_CLAUDE_MANAGED_DIR: join(claude, 'managed'),
  HOOKCTL_STATE_DIR: join(claude, 'state'),
  DEMO_LOG: join(claude, 'state', 'demo.log'),
};
// Codex CLI: `hooks trust` writes the user config.toml, so the demo runs on a fresh copy of the
// committed home (fixtures/demo/codex/home) each time.
const codex = join(demo, 'codex');
const codexHome = join(codex, 'state', 'home');
rmSync(join(codex, 'state'), { recursive: true, force: true });
cpSync(join(codex, 'home'), codexHome, { recursive: true });
const codexEnv = {
  ...process.env,
  HOME: codexHome,
  CODEX_HOME: join(codexHome, '.codex'),
  HOOKCTL_CODEX_SYSTEM_DIR: join(codex, 'system'),
  HOOKCTL_STATE_DIR: join(codex, 'state', 'hookctl'),
};
const xw = ['--workspace', 'fixtures/demo/codex/workspace'];
const where = ['--workspace', 'fixtures/demo/workspace', '--additional-dir', 'fixtures/demo/extra'];
const cw = ['--workspace', 'fixtures/demo/claude/workspace'];
const P = 'fixtures/demo/payloads';
const steps = [
  [['hooks', 'list', ...where], 0],
  [['hooks', 'validate', ...where], 0],
  [['hooks', 'fire', 'prompt.post_assemble', ...where, '--payload', `${P}/prompt.json`], 0],
  [['hooks', 'fire', 'tool.pre_call', ...where, '--payload', `${P}/tool-secret.json`], 1],
  [['hooks', 'fire', 'PreToolUse', ...where, '--payload', `${P}/cosh-rm.json`, '-o', 'jsonl'], 1],
  [['hooks', 'runs', ...where, '--session', 'sess_demo', '--last', '5'], 0],
  // The demo's own tests (fixtures/demo/workspace/tests/): found in the workspace, run by the real engine.
  [['hooks', 'test', ...where], 0],
  // Claude Code
  [['hooks', 'list', ...cw, '--dialect', 'claude'], 0, claudeEnv],
  [['hooks', 'fire', 'PreToolUse', ...cw, '--payload', `${P}/claude-rm.json`], 1, claudeEnv],
  [['hooks', 'fire', 'PreToolUse', ...cw, '--payload', `${P}/claude-push.json`], 4, claudeEnv],
  [['hooks', 'fire', 'PreToolUse', ...cw, '--payload', `${P}/claude-npm.json`], 0, claudeEnv],
  [['hooks', 'fire', 'PreToolUse', ...cw, '--payload', `${P}/claude-write-env.json`], 1, claudeEnv],
  [['hooks', 'fire', 'UserPromptSubmit', ...cw, '--payload', `${P}/claude-prompt.json`], 0, claudeEnv],
  [['hooks', 'runs', ...cw, '--session', 'claude_demo', '--last', '6'], 0, claudeEnv],
  [['hooks', 'test', ...cw], 0, claudeEnv],
  // Yesterday's session (fixtures/demo/claude/transcripts) through today's hooks: two calls now decided differently.
  [['hooks', 'replay', 'fixtures/demo/claude/transcripts', ...cw, '--cwd', 'workspace'], 1, claudeEnv],
  // Codex CLI: a hook runs only once its exact definition is trusted; until then it is skipped, and said so.
  [['hooks', 'list', ...xw, '--dialect', 'codex'], 0, codexEnv],
  [['hooks', 'fire', 'PreToolUse', ...xw, '--payload', `${P}/codex-rm.json`], 0, codexEnv],
  [['hooks', 'trust', '--all', ...xw], 0, codexEnv],
  [['hooks', 'fire', 'PreToolUse', ...xw, '--payload', `${P}/codex-rm.json`], 1, codexEnv],
  [['hooks', 'runs', ...xw, '--session', 'codex_demo'], 0, codexEnv],
  [['hooks', 'test', ...xw], 0, codexEnv],
];

// The demo's http hook posts to a small local server (fixtures/demo/servers).
const server = spawn(process.execPath, [join(demo, 'servers', 'claude-hook-server.mjs')], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
await new Promise((resolve) => server.stderr.once('data', resolve));

let failed = 0;
for (const [args, expected, stepEnv = env] of steps) {
  process.stdout.write(`\n$ hookctl ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [join(root, 'bin', 'run.js'), ...args], {
    cwd: root,
    env: stepEnv,
    stdio: 'inherit',
  });
  // fire's denials exit 1 and an "ask" exits 4 by design; any other difference is a failure.
  if (r.status !== expected) {
    failed++;
    process.stdout.write(`(exit ${r.status}, expected ${expected})\n`);
  } else process.stdout.write(`(exit ${r.status})\n`);
}
server.kill();
process.exit(failed ? 1 : 0);
