// Shared by the reliability suite: a sandbox per test with both dialects' homes, a workspace and
// executable copies of the fault-injecting hook scripts (test/fixtures/reliability/hooks); writers
// for compozy and cosh declarations; readers for what the built CLI left behind; process checks
// (is a pid gone?) and a peak-memory probe of the hookctl process itself.
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunRecord } from '../../src/ledger/record.js';
import { binPath, isolatedEnv, repoRoot, runCli, type CliOptions, type CliResult } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/reliability/', import.meta.url));
export const HOOK_FIXTURES = join(FIXTURES, 'hooks');
export const SEED_FIXTURES = join(FIXTURES, 'seeds');

if (!existsSync(binPath) || !existsSync(join(repoRoot, 'dist', 'commands', 'hooks', 'fire.js'))) {
  throw new Error('the reliability tests run the built CLI: run `npm run build` first');
}

/** What every test checks on any output: a stack frame line means an uncaught error escaped. */
export const STACK_FRAME = /^\s{4}at /m;

export type Dialect = 'compozy' | 'cosh';

/** One `[[hooks.declarations]]` entry of a compozy config.toml. */
export interface CompozyDecl {
  name: string;
  event: string;
  command: string;
  args?: string[];
  mode?: 'sync' | 'async';
  required?: boolean;
  priority?: number;
  timeout?: string;
  env?: Record<string, string>;
  secret_env?: Record<string, string>;
}

/** One `[[hooks.<Event>]]` entry of a cosh config.toml; `command` runs as `sh -c <command>`. */
export interface CoshHook {
  name: string;
  command: string;
  timeout?: number;
  matcher?: string;
  env?: Record<string, string>;
}

export interface Box {
  root: string;
  compozyHome: string;
  coshHome: string;
  workspace: string;
  /** Executable copies of the hook scripts. */
  hooks: string;
  /** Scratch folder for what hooks write (pids, markers, env dumps). */
  out: string;
  env: Record<string, string>;
  hook(name: string): string;
  cli(args: string[], opts?: CliOptions): Promise<CliResult>;
  logFile(dialect: Dialect, session: string): string;
  /** Every line of a session's log, parsed; throws on a line that is not JSON. */
  records(dialect: Dialect, session: string): RunRecord[];
  writeCompozy(decls: CompozyDecl[]): void;
  writeCosh(event: string, hooks: CoshHook[]): void;
}

const s = (v: unknown) => JSON.stringify(v); // JSON strings are valid TOML basic strings
const inlineTable = (m: Record<string, string>) =>
  `{ ${Object.entries(m)
    .map(([k, v]) => `${k} = ${s(v)}`)
    .join(', ')} }`;

export function compozyToml(decls: CompozyDecl[]): string {
  return decls
    .map((d) => {
      const lines = ['[[hooks.declarations]]', `name = ${s(d.name)}`, `event = ${s(d.event)}`];
      if (d.mode) lines.push(`mode = ${s(d.mode)}`);
      if (d.required !== undefined) lines.push(`required = ${d.required}`);
      if (d.priority !== undefined) lines.push(`priority = ${d.priority}`);
      if (d.timeout) lines.push(`timeout = ${s(d.timeout)}`);
      lines.push(`command = ${s(d.command)}`);
      if (d.args) lines.push(`args = [${d.args.map(s).join(', ')}]`);
      if (d.env) lines.push(`env = ${inlineTable(d.env)}`);
      if (d.secret_env) lines.push(`secret_env = ${inlineTable(d.secret_env)}`);
      return lines.join('\n') + '\n';
    })
    .join('\n');
}

export function coshToml(event: string, hooks: CoshHook[]): string {
  return hooks
    .map((h) => {
      const lines = [`[[hooks.${event}]]`, `name = ${s(h.name)}`, `command = ${s(h.command)}`];
      if (h.timeout !== undefined) lines.push(`timeout = ${h.timeout}`);
      if (h.matcher !== undefined) lines.push(`matcher = ${s(h.matcher)}`);
      if (h.env) lines.push(`env = ${inlineTable(h.env)}`);
      return lines.join('\n') + '\n';
    })
    .join('\n');
}

/** Single-quotes a word for `sh -c` (cosh commands). */
export function shQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export function makeBox(prefix = 'hookctl-rel-'): Box {
  const root = tempDir(prefix);
  const compozyHome = join(root, 'home', '.compozy');
  const coshHome = join(root, 'home', '.copilot-shell');
  const workspace = join(root, 'workspace');
  const hooks = join(root, 'hooks');
  const out = join(root, 'out');
  for (const dir of [compozyHome, coshHome, join(workspace, '.compozy'), hooks, out])
    mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(HOOK_FIXTURES)) {
    copyFileSync(join(HOOK_FIXTURES, name), join(hooks, name));
    chmodSync(join(hooks, name), 0o755); // whatever the checkout did with the mode
  }
  const env = isolatedEnv({ home: join(root, 'home'), compozyHome, coshHome, systemRoot: join(root, 'system') });
  const box: Box = {
    root,
    compozyHome,
    coshHome,
    workspace,
    hooks,
    out,
    env,
    hook: (name) => join(hooks, name),
    cli: (args, opts = {}) => runCli([...args, '--workspace', workspace], { env, ...opts }),
    logFile: (dialect, session) =>
      join(dialect === 'compozy' ? compozyHome : coshHome, 'sessions', session, 'hook-runs.jsonl'),
    records: (dialect, session) => parseJsonl(readFileSync(box.logFile(dialect, session), 'utf8')),
    writeCompozy: (decls) => writeFileSync(join(workspace, '.compozy', 'config.toml'), compozyToml(decls)),
    writeCosh: (event, list) => writeFileSync(join(coshHome, 'config.toml'), coshToml(event, list)),
  };
  return box;
}

export function parseJsonl(text: string): RunRecord[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l, i) => {
      try {
        return JSON.parse(l) as RunRecord;
      } catch {
        throw new Error(`line ${i + 1} is not JSON: ${l.slice(0, 200)}`);
      }
    });
}

export function parseJson<T = Record<string, unknown>>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON (${text.length} characters): ${text.slice(0, 300)} ... ${text.slice(-100)}`);
  }
}

/** The `-o json` document of `hooks fire`. */
export interface FireJson {
  event: string;
  dialect: string;
  session_id: string;
  dispatch_id: string;
  verdict: string;
  error: string | null;
  payload: Record<string, unknown>;
  runs: RunRecord[];
}

/** The pids a hook script appended to a file, one per line. */
export function readPids(file: string): number[] {
  const pids = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(Number);
  for (const pid of pids) if (!Number.isInteger(pid) || pid <= 1) throw new Error(`bad pid ${pid} in ${file}`);
  return pids;
}

/**
 * Gone = `kill(pid, 0)` fails with ESRCH, or the process is a zombie: it has exited and only
 * waits for its parent (init in a container may never reap it) to collect the status.
 */
export function processIsGone(pid: number): boolean {
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
 * Pids still running after a settle (a SIGKILLed process needs a moment to be torn down, more on a
 * loaded machine); returns as soon as none is left.
 */
export async function survivors(pids: number[], settleMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + settleMs;
  for (;;) {
    const alive = pids.filter((p) => !processIsGone(p));
    if (alive.length === 0 || Date.now() >= deadline) return alive;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Kills what a failing test left behind, so one failure does not leave 30 s sleepers around. */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export interface MeasuredResult extends CliResult {
  /** Peak resident set of the hookctl (node) process itself, in KiB: VmHWM from /proc. */
  peakKb: number;
}

/**
 * Runs the built CLI and polls /proc/<pid>/status for VmHWM, the kernel's high-water mark of the
 * process's resident set: it only grows, so the last read before exit is the peak up to then.
 */
export function runCliMeasured(
  args: string[],
  opts: CliOptions & { env: Record<string, string> },
): Promise<MeasuredResult> {
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      cwd: opts.cwd ?? repoRoot,
      env: opts.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let peakKb = 0;
    const poll = () => {
      try {
        const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch {
        // exited between polls
      }
    };
    const poller = setInterval(poll, 10);
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hookctl ${args.join(' ')} did not finish in ${opts.timeoutMs ?? 120_000} ms`));
    }, opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('exit', poll);
    child.on('close', (code, signal) => {
      clearInterval(poller);
      clearTimeout(timer);
      resolvePromise({ code: code ?? (signal ? 128 : -1), stdout, stderr, ms: performance.now() - started, peakKb });
    });
    // EPIPE: the command exited without reading its stdin, the normal outcome for most.
    child.stdin.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') reject(e);
    });
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * Runs the built CLI with its stdout on a real pipe read by `cat`, as in `hookctl ... | jq` (the
 * helper above gives it a socket pair instead, which behaves differently when output is pending
 * at exit). The exit code comes back through a file.
 */
export async function runCliThroughPipe(
  args: string[],
  opts: CliOptions & { env: Record<string, string> },
): Promise<CliResult> {
  const codeFile = join(tempDir('hookctl-pipe-'), 'code');
  const script = 'code_file=$1; shift; { "$@"; echo $? > "$code_file"; } | cat';
  const res = await new Promise<CliResult>((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn('/bin/sh', ['-c', script, 'sh', codeFile, process.execPath, binPath, ...args], {
      cwd: opts.cwd ?? repoRoot,
      env: opts.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hookctl ${args.join(' ')} did not finish in ${opts.timeoutMs ?? 30_000} ms`));
    }, opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolvePromise({ code: -1, stdout, stderr, ms: performance.now() - started });
    });
    // EPIPE: the command exited without reading its stdin, the normal outcome for most.
    child.stdin.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') reject(e);
    });
    child.stdin.end(opts.input ?? '');
  });
  return { ...res, code: Number(readFileSync(codeFile, 'utf8').trim()) };
}

/** A run record's error is one clear line: non-empty, trimmed, no control characters, short. */
export function expectOneLineError(error: unknown): string {
  if (typeof error !== 'string' || error === '') throw new Error(`expected an error, got ${s(error)}`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(error)) throw new Error(`error has control characters: ${s(error)}`);
  if (error !== error.trim()) throw new Error(`error is not trimmed: ${s(error)}`);
  if (error.length > 400) throw new Error(`error is ${error.length} characters long: ${s(error.slice(0, 200))}...`);
  return error;
}

/** A tool payload for cosh PreToolUse that every hook without a matcher sees. */
export const COSH_PAYLOAD = '{"tool_name":"shell","tool_input":{"command":"ls"}}';
/** A compozy tool.pre_call payload. */
export const COMPOZY_PAYLOAD = '{"tool_id":"compozy__workspace_info","tool_input":{"path":"."}}';
