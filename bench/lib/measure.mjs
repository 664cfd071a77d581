// Timing and memory primitives of the benchmark suite. Every figure is a ratio of two commands
// measured side by side, alternating, so that load on a shared machine weighs on both alike.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { clearInterval, setInterval } from 'node:timers';

const BASH = '/bin/bash';
const HAS_BASH = existsSync(BASH);

/** Median, min and max of a list of numbers. */
export function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}

/**
 * Runs one command to completion. stdout is read through a pipe, as a calling script would read
 * it, and kept only with `capture` (a benchmark must not hold a gigabyte). With `pollHwm`, the
 * child's VmHWM (peak RSS) is polled from /proc while it runs. A non-zero exit is an error
 * unless `okCodes` lists it: a benchmark that times a failure measures nothing.
 */
export function run(cmd, { env, cwd, input, capture = false, okCodes = [0], pollHwm = false, cpu = false } = {}) {
  // With `cpu`, bash's `time` reports the command's wall time and its user+sys CPU (getrusage of
  // its child, in ms) on the last line of stderr: bash's own start is not in either figure.
  // Every run names its environment (bench/lib/env.mjs): an inherited NODE_* variable must
  // never slip into a figure by default.
  if (env === undefined) throw new Error(`bench: no environment given for ${cmd.join(' ')}`);
  const argv = cpu && HAS_BASH ? [BASH, '-c', 'TIMEFORMAT="%3R %3U %3S"; time "$@"', 'bash', ...cmd] : cmd;
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), {
      env,
      cwd,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out = [];
    let stderr = '';
    let hwmKb = 0;
    child.stdout.on('data', (d) => {
      if (capture) out.push(d);
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      if (stderr.length > 64 * 1024) stderr = stderr.slice(-32 * 1024);
    });
    if (input !== undefined) child.stdin.end(input);
    const readHwm = () => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) hwmKb = Math.max(hwmKb, Number(m[1]));
      } catch {
        // the process has exited
      }
    };
    const timer = pollHwm ? setInterval(readHwm, 2) : undefined;
    child.on('error', reject);
    child.on('close', (code, signal) => {
      let ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (timer) clearInterval(timer);
      if (!okCodes.includes(code)) {
        reject(new Error(`${cmd.join(' ')}\n  exited ${code ?? signal}: ${stderr.trim().slice(-2000)}`));
        return;
      }
      let cpuMs;
      if (cpu && HAS_BASH) {
        const [real, user, sys] = stderr.trimEnd().split('\n').pop().split(' ').map(Number);
        ms = real * 1000;
        cpuMs = (user + sys) * 1000;
      }
      resolve({ ms, cpuMs, code, stdout: Buffer.concat(out).toString('utf8'), stderr, hwmKb });
    });
  });
}

/**
 * Measures `a` and `b` alternately, `runs` times each after `warmup` unrecorded rounds. The order
 * flips every round so neither command always runs right after the other. The figure is the
 * median of the per-round ratios a/b: each ratio compares two runs made moments apart, so a burst
 * of load from elsewhere weighs on both of them (the ratio of the two medians is kept too).
 */
export async function compare(a, b, { runs = 5, warmup = 1, cpu = false } = {}) {
  const ta = [];
  const tb = [];
  const ca = [];
  const cb = [];
  for (let i = 0; i < warmup + runs; i++) {
    const aFirst = i % 2 === 0;
    const first = await run((aFirst ? a : b).cmd, { ...(aFirst ? a : b), cpu });
    const second = await run((aFirst ? b : a).cmd, { ...(aFirst ? b : a), cpu });
    if (i < warmup) continue;
    const [ra, rb] = aFirst ? [first, second] : [second, first];
    ta.push(ra.ms);
    tb.push(rb.ms);
    if (ra.cpuMs !== undefined && rb.cpuMs !== undefined) {
      ca.push(ra.cpuMs);
      cb.push(rb.cpuMs);
    }
  }
  const sa = stats(ta);
  const sb = stats(tb);
  const ratios = stats(ta.map((t, i) => t / tb[i]));
  const differences = stats(ta.map((t, i) => t - tb[i]));
  // CPU time (user + sys) is less disturbed by other processes than wall time: a second view.
  const cpuRatios = ca.length ? stats(ca.map((t, i) => t / cb[i])) : undefined;
  return { a: sa, b: sb, ratio: ratios.median, ratios, ratioOfMedians: sa.median / sb.median, differences, cpuRatios };
}

const GNU_TIME = '/usr/bin/time';

/** How peak RSS is measured here: GNU time when present, else /proc VmHWM polling. */
export function rssMethod() {
  return existsSync(GNU_TIME) ? `${GNU_TIME} -f %M` : '/proc/<pid>/status VmHWM, polled every 2 ms';
}

/**
 * Peak resident set size (MB) of one run of a command, and its captured stdout. GNU time's %M is
 * the kernel's maxrss of the child (KiB); without it, VmHWM — the same high-water mark — is polled.
 */
export async function peakRss(a) {
  if (existsSync(GNU_TIME)) {
    // GNU time writes its line last on stderr and exits with the command's own status.
    const r = await run([GNU_TIME, '-f', '%M', ...a.cmd], a);
    const kb = Number(r.stderr.trim().split('\n').pop());
    if (!Number.isFinite(kb)) throw new Error(`no maxrss from ${GNU_TIME}: ${r.stderr.slice(-500)}`);
    return { mb: kb / 1024, stdout: r.stdout };
  }
  const r = await run(a.cmd, { ...a, pollHwm: true });
  return { mb: r.hwmKb / 1024, stdout: r.stdout };
}
