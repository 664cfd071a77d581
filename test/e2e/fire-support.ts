// Shared by the fire-/runs-/depth- end-to-end tests: a sandbox per test (a CompozyOS home, a
// workspace whose .compozy/config.toml the test writes, and executable copies of the hook
// scripts in test/fixtures/e2e-fire/hooks), and readers for what the built CLI left behind.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunRecord } from '../../src/ledger/record.js';
import { binPath, isolatedEnv, runCli, type CliOptions, type CliResult } from '../support/cli.js';

export const HOOK_FIXTURES = fileURLToPath(new URL('../fixtures/e2e-fire/hooks/', import.meta.url));

if (!existsSync(binPath) || !existsSync(fileURLToPath(new URL('../../dist/commands/hooks/fire.js', import.meta.url)))) {
  throw new Error('the e2e tests run the built CLI: run `npm run build` first');
}

/** One `[[hooks.declarations]]` entry; `command` defaults to a hook script of the sandbox. */
export interface Decl {
  name: string;
  event: string;
  mode?: 'sync' | 'async';
  required?: boolean;
  priority?: number;
  timeout?: string;
  enabled?: boolean;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  secret_env?: Record<string, string>;
  matcher?: Record<string, string | boolean>;
  /** Raw TOML lines added to the entry (for deliberately broken declarations). */
  extra?: string;
}

export interface Sandbox {
  root: string;
  /** COMPOZY_HOME */
  home: string;
  workspace: string;
  /** Executable copies of the hook scripts. */
  hooks: string;
  /** A scratch folder for files hooks write (markers, pids, env dumps). */
  out: string;
  env: Record<string, string>;
  /** `hooks` path of a script: `hook('emit.sh')`. */
  hook(name: string): string;
  /** Runs the built CLI with `--workspace` added and the sandbox's environment. */
  cli(args: string[], opts?: CliOptions): Promise<CliResult>;
  logFile(session: string): string;
  /** Every line of a session's log, parsed (throws on a line that is not JSON). */
  records(session: string): RunRecord[];
  writeConfig(decls: Decl[]): void;
}

const sandboxes: string[] = [];

/** Removes every sandbox this test file made: `afterAll(removeSandboxes)`. */
export function removeSandboxes(): void {
  for (const root of sandboxes.splice(0)) rmSync(root, { recursive: true, force: true });
}

export function makeSandbox(decls: Decl[] = []): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'hookctl-e2e-fire-'));
  sandboxes.push(root);
  const home = join(root, 'home', '.compozy');
  const workspace = join(root, 'workspace');
  const hooks = join(workspace, 'hooks');
  const out = join(root, 'out');
  for (const dir of [home, join(workspace, '.compozy'), hooks, out]) mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(HOOK_FIXTURES)) {
    copyFileSync(join(HOOK_FIXTURES, name), join(hooks, name));
    chmodSync(join(hooks, name), 0o755); // whatever the checkout did with the mode
  }
  const env = isolatedEnv({ home: join(root, 'home'), compozyHome: home });
  const box: Sandbox = {
    root,
    home,
    workspace,
    hooks,
    out,
    env,
    hook: (name) => join(hooks, name),
    cli: (args, opts = {}) => runCli([...args, '--workspace', workspace], { env, ...opts }),
    logFile: (session) => join(home, 'sessions', session, 'hook-runs.jsonl'),
    records: (session) =>
      readFileSync(box.logFile(session), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as RunRecord),
    writeConfig: (list) => writeFileSync(join(workspace, '.compozy', 'config.toml'), configToml(list)),
  };
  box.writeConfig(decls);
  return box;
}

/** TOML for a list of declarations. JSON strings are valid TOML basic strings. */
export function configToml(decls: Decl[]): string {
  const s = (v: unknown) => JSON.stringify(v);
  const table = (m: Record<string, unknown>) =>
    `{ ${Object.entries(m)
      .map(([k, v]) => `${k} = ${s(v)}`)
      .join(', ')} }`;
  return decls
    .map((d) => {
      const lines = ['[[hooks.declarations]]', `name = ${s(d.name)}`, `event = ${s(d.event)}`];
      if (d.mode) lines.push(`mode = ${s(d.mode)}`);
      if (d.required !== undefined) lines.push(`required = ${d.required}`);
      if (d.priority !== undefined) lines.push(`priority = ${d.priority}`);
      if (d.timeout) lines.push(`timeout = ${s(d.timeout)}`);
      if (d.enabled !== undefined) lines.push(`enabled = ${d.enabled}`);
      lines.push(`command = ${s(d.command)}`);
      if (d.args) lines.push(`args = [${d.args.map(s).join(', ')}]`);
      if (d.env) lines.push(`env = ${table(d.env)}`);
      if (d.secret_env) lines.push(`secret_env = ${table(d.secret_env)}`);
      if (d.extra) lines.push(d.extra);
      if (d.matcher) lines.push(`matcher = ${table(d.matcher)}`);
      return lines.join('\n') + '\n';
    })
    .join('\n');
}

/** A sync hook of the sandbox that prints `patch`; `more` overrides any field. */
export function emitHook(box: Sandbox, name: string, event: string, patch: string, more: Partial<Decl> = {}): Decl {
  return { name, event, mode: 'sync', command: box.hook('emit.sh'), args: [patch], ...more };
}

export function parseJson<T = Record<string, unknown>>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON: ${text.slice(0, 500)}`);
  }
}

/** The `-o json` result of `hooks fire`. */
export interface FireJson {
  event: string;
  dialect: string;
  session_id: string;
  dispatch_id: string;
  verdict: string;
  deny_reason: string | null;
  error: string | null;
  payload: Record<string, unknown>;
  runs: RunRecord[];
  async_queued: number;
}

/** A process is gone when it no longer exists or is a zombie nobody reaped yet. */
export function processIsDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw err;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true; // vanished between the two checks
  }
}

/**
 * Whether a process is dead within `ms`, polled: a process killed a moment ago may take a while
 * to be torn down on a loaded machine, so a fixed sleep before processIsDead would be a flaky test.
 */
export async function deadWithin(pid: number, ms = 10_000): Promise<boolean> {
  for (const deadline = Date.now() + ms; !processIsDead(pid); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() > deadline) return false;
  return true;
}

export function readPid(file: string): number {
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 1) throw new Error(`no pid in ${file}`);
  return pid;
}
