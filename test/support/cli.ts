// Runs the BUILT CLI (bin/run.js over dist/) as a user would, with homes pointed at temp or
// fixture folders so no test ever reads the real home.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mapConcurrent } from '../../src/dialects/compozy/sources/common.js';
import { tempDir } from './temp.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const binPath = join(repoRoot, 'bin', 'run.js');
export const demoDir = join(repoRoot, 'fixtures', 'demo');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  input?: string;
  timeoutMs?: number;
}

/** A minimal environment: PATH and the homes only, so results never depend on the developer's. */
export function isolatedEnv(
  homes: { compozyHome?: string; coshHome?: string; systemRoot?: string; home?: string } = {},
) {
  const base = homes.home ?? tempDir('hookctl-home-');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: base,
    LANG: 'C.UTF-8',
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    COMPOZY_HOME: homes.compozyHome ?? join(base, '.compozy'),
    COSH_HOME: homes.coshHome ?? join(base, '.copilot-shell'),
    COSH_SYSTEM_ROOT: homes.systemRoot ?? join(base, 'system'),
    // Claude Code's locations: the config dir follows HOME; the managed dir and hookctl's state
    // must not be the machine's.
    HOOKCTL_CLAUDE_MANAGED_DIR: join(base, 'claude-managed'),
    HOOKCTL_STATE_DIR: join(base, 'state'),
    // Codex's home and system dir: never the machine's (a real ~/.codex must not leak in).
    CODEX_HOME: join(base, '.codex'),
    HOOKCTL_CODEX_SYSTEM_DIR: join(base, 'codex-system'),
  };
  mkdirSync(env.COSH_SYSTEM_ROOT, { recursive: true });
  return env;
}

/** The demo's homes, with sessions written to a fresh temp folder copy of nothing else. */
export function demoEnv(extra: Record<string, string> = {}) {
  return {
    ...isolatedEnv({
      compozyHome: join(demoDir, 'home', '.compozy'),
      coshHome: join(demoDir, 'home', '.copilot-shell'),
      systemRoot: join(demoDir, 'system'),
    }),
    ...extra,
  };
}

export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      cwd: opts.cwd ?? repoRoot,
      env: Object.fromEntries(
        Object.entries(opts.env ?? isolatedEnv()).filter(([, v]) => v !== undefined),
      ) as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hookctl ${args.join(' ')} did not finish in ${opts.timeoutMs ?? 20000} ms`));
    }, opts.timeoutMs ?? 20000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? (signal ? 128 : -1), stdout, stderr, ms: performance.now() - started });
    });
    // A command that exits before it reads its stdin (most never read it) closes the pipe: EPIPE
    // on our end is the normal outcome then, not a test failure.
    child.stdin.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') reject(e);
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs the jobs at most `limit` at a time (CI has two cores; dozens of CLIs at once time out). */
export function limited<T>(jobs: (() => Promise<T>)[], limit = 4): Promise<T[]> {
  return mapConcurrent(jobs, limit, (job) => job());
}

/** A copy of the demo in a temp folder, with its own homes and so its own sessions. */
export function demoCopy(): { base: string; env: Record<string, string>; W: string[] } {
  const base = tempDir('hookctl-demo-');
  cpSync(demoDir, base, { recursive: true });
  const env = isolatedEnv({
    home: base,
    compozyHome: join(base, 'home', '.compozy'),
    coshHome: join(base, 'home', '.copilot-shell'),
    systemRoot: join(base, 'system'),
  });
  return { base, env, W: ['--workspace', join(base, 'workspace'), '--additional-dir', join(base, 'extra')] };
}
