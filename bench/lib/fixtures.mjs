// Generated inputs of the benchmarks, all under bench/.work/ (gitignored). Large inputs (the
// 1,000,000-record log, the 10,000-declaration workspace) are written once and reused while
// their marker file says they are complete and of the current layout.
import { once } from 'node:events';
import { cpSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Bump when a generator's output changes, so stale inputs are rebuilt. */
const LAYOUT = 2; // 2: declarations use the newest CompozyOS release's events

function done(dir) {
  const marker = join(dir, '.complete');
  return existsSync(marker) && readFileSync(marker, 'utf8') === String(LAYOUT);
}

function markDone(dir) {
  writeFileSync(join(dir, '.complete'), String(LAYOUT));
}

let report = () => {};

/** Where to say that an input is being generated (it can take seconds). */
export function onGenerate(log) {
  report = log;
}

/** Creates `dir` afresh unless it is complete; `build` fills it. */
export async function generateOnce(dir, build) {
  if (done(dir)) return { dir, reused: true };
  report(`generating ${dir} (once; reused afterwards)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await build(dir);
  markDone(dir);
  return { dir, reused: false };
}

/** Environment that points every hookctl location into `home` (never the real one). */
export function homesEnv(base, { compozyHome, coshHome, coshSystemRoot } = {}) {
  const env = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  delete env.HOOKCTL_DISPATCH_DEPTH;
  env.COMPOZY_HOME = compozyHome ?? join(base, 'home', '.compozy');
  env.COSH_HOME = coshHome ?? join(base, 'home', '.copilot-shell');
  env.COSH_SYSTEM_ROOT = coshSystemRoot ?? join(base, 'system');
  // Claude Code's locations too, so no bench ever reads the real ~/.claude or /etc/claude-code.
  env.CLAUDE_CONFIG_DIR = join(base, 'home', '.claude');
  env.HOOKCTL_CLAUDE_MANAGED_DIR = join(base, 'system', 'claude-code');
  // … and Codex's, so none reads the real ~/.codex or /etc/codex.
  env.CODEX_HOME = join(base, 'home', '.codex');
  env.HOOKCTL_CODEX_SYSTEM_DIR = join(base, 'system', 'codex');
  env.HOOKCTL_STATE_DIR = join(base, 'state');
  delete env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS;
  return env;
}

// ---- run records ----

const OUTCOMES = ['applied', 'applied', 'applied', 'applied', 'failed', 'denied', 'skipped'];
const EVENTS = ['tool.pre_call', 'tool.post_call', 'prompt.post_assemble', 'input.pre_submit', 'session.post_create'];

/**
 * One realistic §5 record line (about 500 bytes), of `workspace` (the read commands keep the
 * records of the workspace they run in, so the figures pass `--workspace` to match). Written as a template, not JSON.stringify of an
 * object, so the 1,000,000-record log is generated in seconds; every value is plain ASCII, so the
 * line is the same JSON (a test in bench/run.mjs parses the tail of each log).
 */
export function recordLine(i, sessionId, startMs, workspace) {
  const outcome = OUTCOMES[i % OUTCOMES.length];
  const failed = outcome === 'failed';
  return (
    `{"run_id":"run_${String(i).padStart(10, '0')}","dispatch_id":"dsp_${String(Math.floor(i / 4)).padStart(10, '0')}",` +
    `"session_id":"${sessionId}","dialect":"compozy","event":"${EVENTS[i % EVENTS.length]}","hook_name":"hook-${i % 50}",` +
    `"source":"config","mode":"sync","priority":500,"required":false,"outcome":"${outcome}","duration_ms":${3 + (i % 17)},` +
    `"dispatch_depth":0,"exit_code":${failed ? 1 : 0},"signal":null,"timed_out":false,"stdout_bytes":2,"stderr_bytes":0,` +
    `"truncated":false,${failed ? '"error":"hook command failed: exit status 1",' : ''}` +
    `"workspace":${JSON.stringify(workspace)},"declared_in":${JSON.stringify(join(workspace, '.compozy', 'config.toml'))},` +
    `"recorded_at":"${new Date(startMs + i * 10).toISOString()}"}\n`
  );
}

/** Writes `count` records to `file`, streaming in batches. */
async function writeRecords(file, count, sessionId, workspace) {
  mkdirSync(join(file, '..'), { recursive: true });
  const out = createWriteStream(file);
  const start = Date.UTC(2026, 0, 1);
  const batch = 5000;
  for (let i = 0; i < count;) {
    let text = '';
    const end = Math.min(count, i + batch);
    for (; i < end; i++) text += recordLine(i, sessionId, start, workspace);
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/**
 * A compozy home whose only session holds `count` records of `<dir>/workspace` (figure 3); the
 * commands read it with `--workspace` that folder (`workspaceFlags`).
 */
export function ledgerHome(workDir, count) {
  return generateOnce(join(workDir, `ledger-${count}-ws`), async (dir) => {
    const sessionId = 'bench-ledger';
    mkdirSync(join(dir, 'workspace'), { recursive: true });
    const file = join(dir, 'home', '.compozy', 'sessions', sessionId, 'hook-runs.jsonl');
    await writeRecords(file, count, sessionId, join(dir, 'workspace'));
  });
}

/** `--workspace` of a generated home's workspace, whose records the read commands keep. */
export const workspaceFlags = (dir) => ['--workspace', join(dir, 'workspace')];

// ---- the demo (figure 1) ----

/**
 * A copy of fixtures/demo (so nothing is ever written into the repository) with one recorded
 * session of 100 runs, so `hooks runs` and `hooks info` have records to show.
 */
export async function demoCopy(root, workDir) {
  const dir = join(workDir, 'demo');
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(root, 'fixtures', 'demo'), dir, { recursive: true });
  rmSync(join(dir, 'home', '.compozy', 'sessions'), { recursive: true, force: true });
  rmSync(join(dir, 'home', '.copilot-shell', 'sessions'), { recursive: true, force: true });
  const demoLog = join(dir, 'home', '.compozy', 'sessions', 'bench-demo', 'hook-runs.jsonl');
  await writeRecords(demoLog, 100, 'bench-demo', join(dir, 'workspace'));
  return {
    dir,
    env: homesEnv(dir, {
      compozyHome: join(dir, 'home', '.compozy'),
      coshHome: join(dir, 'home', '.copilot-shell'),
      coshSystemRoot: join(dir, 'system'),
    }),
    flags: ['--workspace', join(dir, 'workspace'), '--additional-dir', join(dir, 'extra')],
  };
}

/** The folders of a generated home: both runtimes' homes, the system root, a workspace, and `extra`. */
export function homeFolders(dir, extra = []) {
  for (const d of ['home/.compozy', 'home/.copilot-shell', 'system', 'workspace', ...extra])
    mkdirSync(join(dir, d), { recursive: true });
}

// ---- declarations ----

/** The event catalog of the build (the newest CompozyOS release, the default), so generated
 * declarations use real events. dist/ is bundles: dist/modules.json (written by the build) names
 * the file that holds the release catalog module. */
async function catalogEvents(root) {
  const files = JSON.parse(readFileSync(join(root, 'dist', 'modules.json'), 'utf8'));
  const module = 'src/dialects/compozy/releases.ts';
  const file = Object.keys(files).find((f) => files[f].modules.includes(module));
  if (file === undefined) throw new Error(`bench: no built file holds ${module} (build first)`);
  const { releaseCatalog } = createRequire(import.meta.url)(join(root, 'dist', file));
  return releaseCatalog().events.filter((e) => !e.matcher_fields.some((f) => f === 'task_id')); // keep matchers simple
}

function tomlString(s) {
  return JSON.stringify(s);
}

/** One `[[hooks.declarations]]` of a config.toml. */
function configDeclaration(i, event) {
  const lines = [
    '[[hooks.declarations]]',
    `name = ${tomlString(`config-hook-${String(i).padStart(5, '0')}`)}`,
    `event = ${tomlString(event.name)}`,
    `mode = ${tomlString(event.sync_eligible && i % 2 === 0 ? 'sync' : 'async')}`,
    `priority = ${(i * 7) % 900}`,
    `timeout = ${tomlString(`${1 + (i % 9)}s`)}`,
    'command = "/usr/bin/env"',
    `args = ["bash", "./hooks/check-${i % 13}.sh", "--level", "${i % 3}"]`,
  ];
  if (i % 4 === 0) lines.push('', '[hooks.declarations.env]', `CHECK_LEVEL = "${i % 5}"`);
  const matcher = [];
  if (event.matcher_fields.includes('tool_id') && i % 3 === 0) matcher.push('tool_id = "compozy__*"');
  if (event.matcher_fields.includes('agent_name') && i % 5 === 0) matcher.push(`agent_name = "agent-${i % 7}"`);
  if (matcher.length) lines.push('', '[hooks.declarations.matcher]', ...matcher);
  return lines.join('\n') + '\n';
}

/** A SKILL.md declaring `perSkill` hooks. */
function skillFile(s, perSkill, events) {
  const hooks = [];
  for (let k = 0; k < perSkill; k++) {
    const event = events[(s * perSkill + k) % events.length];
    const lines = [
      `      - event: ${event.name}`,
      `        mode: ${event.sync_eligible && k % 2 === 0 ? 'sync' : 'async'}`,
      `        timeout: ${1 + ((s + k) % 5)}s`,
      '        command: /usr/bin/env',
      `        args: ["bash", "./hooks/skill-${s % 11}.sh", "${k}"]`,
    ];
    if (event.matcher_fields.includes('tool_id') && s % 3 === 0)
      lines.push('        matcher:', '          tool_id: "compozy__*"');
    hooks.push(lines.join('\n'));
  }
  return [
    '---',
    `name: skill-${String(s).padStart(5, '0')}`,
    `description: Generated skill ${s} for the catalog benchmark.`,
    'metadata:',
    '  compozy:',
    '    hooks:',
    ...hooks,
    '---',
    '',
    `# skill-${s}`,
    '',
    'A generated skill: its body is not read by hookctl.',
    '',
  ].join('\n');
}

/**
 * A workspace with `configCount` declarations in its .compozy/config.toml and `skillCount`
 * SKILL.md files of `perSkill` hooks each (figure 4: 2,000 + 4,000 × 2 = 10,000).
 */
export function catalogWorkspace(root, workDir, { configCount, skillCount, perSkill }) {
  const total = configCount + skillCount * perSkill;
  return generateOnce(join(workDir, `catalog-${total}`), async (dir) => {
    const events = await catalogEvents(root);
    const ws = join(dir, 'workspace', '.compozy');
    mkdirSync(ws, { recursive: true });
    let toml = '# Generated by bench/lib/fixtures.mjs\n\n';
    for (let i = 0; i < configCount; i++) toml += configDeclaration(i, events[i % events.length]) + '\n';
    writeFileSync(join(ws, 'config.toml'), toml);
    for (let s = 0; s < skillCount; s++) {
      const skillDir = join(ws, 'skills', `skill-${String(s).padStart(5, '0')}`);
      mkdirSync(skillDir, { recursive: true });
      writeFileSync(join(skillDir, 'SKILL.md'), skillFile(s, perSkill, events));
    }
    homeFolders(dir); // the workspace is there already
  });
}

// ---- firing ----

/** A compozy home whose config.toml has `count` sync hooks on prompt.post_assemble running `true` (figure 2). */
export function dispatchHome(workDir, count) {
  return generateOnce(join(workDir, `dispatch-${count}`), async (dir) => {
    let toml = '';
    for (let i = 0; i < count; i++) {
      toml += `[[hooks.declarations]]\nname = "true-${String(i).padStart(3, '0')}"\nevent = "prompt.post_assemble"\nmode = "sync"\ncommand = "true"\n\n`;
    }
    homeFolders(dir);
    writeFileSync(join(dir, 'home', '.compozy', 'config.toml'), toml);
  });
}

/** A cosh home whose config.toml has `count` PreToolUse hooks running `true` (the cosh dispatch entry). */
export function coshDispatchHome(workDir, count) {
  return generateOnce(join(workDir, `cosh-dispatch-${count}`), async (dir) => {
    let toml = '[hooks]\nenabled = true\n';
    for (let i = 0; i < count; i++)
      toml += `\n[[hooks.PreToolUse]]\nname = "true-${String(i).padStart(3, '0')}"\ncommand = "true"\n`;
    homeFolders(dir);
    writeFileSync(join(dir, 'home', '.copilot-shell', 'config.toml'), toml);
  });
}

/** A compozy home with one sync hook that writes `bytes` zero bytes to stdout (figure 5). */
export function floodHome(workDir, bytes) {
  return generateOnce(join(workDir, `flood-${bytes}`), async (dir) => {
    const toml = [
      '[[hooks.declarations]]',
      'name = "flood"',
      'event = "prompt.post_assemble"',
      'mode = "sync"',
      'timeout = "600s"',
      'command = "head"',
      `args = ["-c", "${bytes}", "/dev/zero"]`,
      '',
    ].join('\n');
    homeFolders(dir);
    writeFileSync(join(dir, 'home', '.compozy', 'config.toml'), toml);
  });
}

/**
 * A Claude Code user settings file with `count` UserPromptSubmit command hooks in shell form
 * (`true <n>`: distinct handlers, so none is deduplicated), for the claude dispatch figure.
 */
export function claudeDispatchHome(workDir, count) {
  return generateOnce(join(workDir, `claude-dispatch-${count}`), async (dir) => {
    const hooks = [];
    for (let i = 0; i < count; i++) hooks.push({ type: 'command', command: `true ${String(i).padStart(3, '0')}` });
    homeFolders(dir, ['home/.claude']);
    const settings = { hooks: { UserPromptSubmit: [{ hooks }] } };
    writeFileSync(join(dir, 'home', '.claude', 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
  });
}
