// The one-line error of a failed hook process, in Go's words (SPEC §3.3, §5 `error`), and Go's
// duration and signal texts. Pure: dispatch code formats failures without loading the executor.
import type { ExecResult } from './types.js';

/**
 * SPEC §3.4's one-line cause for a run that did not succeed, or undefined when it exited 0.
 * - start failure: its message as is (the dispatcher wraps resolve failures with hook and command);
 * - timeout: `hook timed out after <d>`, d as a Go duration (`5s`, `250ms`, `1.5s`, `1m30s`);
 * - exit N: `hook command failed: exit status N`;
 * - signal: `hook command failed: signal: killed` — Go's wording (os.ProcessState.String uses the
 *   signal's description: `killed`, `terminated`, `segmentation fault`, ...), not `SIGKILL`.
 * The exit and signal forms end in ` (stderr: M bytes)` when the hook wrote any stderr. Stderr
 * content is never included.
 */
export function formatExecFailure(result: ExecResult, timeoutMs: number): string | undefined {
  if (result.startError) return result.startError.message;
  if (result.timedOut) return `hook timed out after ${goDuration(timeoutMs)}`;
  const stderrNote = result.stderrBytes > 0 ? ` (stderr: ${result.stderrBytes} bytes)` : '';
  if (result.signal !== null) return `hook command failed: signal: ${goSignalText(result.signal)}${stderrNote}`;
  if (result.exitCode !== null && result.exitCode !== 0) {
    return `hook command failed: exit status ${result.exitCode}${stderrNote}`;
  }
  return undefined;
}

/** Go's time.Duration.String for a number of milliseconds: `5s`, `250ms`, `1.5s`, `1m30s`, `1h0m0s`. */
export function goDuration(ms: number): string {
  let ns = Math.round(ms * 1e6);
  const sign = ns < 0 ? '-' : '';
  ns = Math.abs(ns);
  if (ns === 0) return '0s';
  if (ns < 1e3) return `${sign}${ns}ns`;
  if (ns < 1e6) return `${sign}${decimal(ns, 1e3)}µs`;
  if (ns < 1e9) return `${sign}${decimal(ns, 1e6)}ms`;
  const wholeSeconds = Math.floor(ns / 1e9);
  const seconds = `${decimal((wholeSeconds % 60) * 1e9 + (ns % 1e9), 1e9)}s`;
  const hours = Math.floor(wholeSeconds / 3600);
  const minutes = Math.floor((wholeSeconds % 3600) / 60);
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}

/** `value / unit` written with the fraction's trailing zeros dropped (value, unit integers). */
function decimal(value: number, unit: number): string {
  const whole = Math.floor(value / unit);
  const rest = value % unit;
  if (rest === 0) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** Go's syscall.Signal.String on Linux. */
const GO_SIGNAL_TEXT: Record<string, string> = {
  SIGABRT: 'aborted',
  SIGALRM: 'alarm clock',
  SIGBUS: 'bus error',
  SIGCHLD: 'child exited',
  SIGCONT: 'continued',
  SIGFPE: 'floating point exception',
  SIGHUP: 'hangup',
  SIGILL: 'illegal instruction',
  SIGINT: 'interrupt',
  SIGIO: 'I/O possible',
  SIGPOLL: 'I/O possible',
  SIGKILL: 'killed',
  SIGPIPE: 'broken pipe',
  SIGPROF: 'profiling timer expired',
  SIGPWR: 'power failure',
  SIGQUIT: 'quit',
  SIGSEGV: 'segmentation fault',
  SIGSTKFLT: 'stack fault',
  SIGSTOP: 'stopped (signal)',
  SIGSYS: 'bad system call',
  SIGTERM: 'terminated',
  SIGTRAP: 'trace/breakpoint trap',
  SIGTSTP: 'stopped',
  SIGTTIN: 'stopped (tty input)',
  SIGTTOU: 'stopped (tty output)',
  SIGURG: 'urgent I/O condition',
  SIGUSR1: 'user defined signal 1',
  SIGUSR2: 'user defined signal 2',
  SIGVTALRM: 'virtual timer expired',
  SIGWINCH: 'window changed',
  SIGXCPU: 'CPU time limit exceeded',
  SIGXFSZ: 'file size limit exceeded',
};

export function goSignalText(signalName: string): string {
  return GO_SIGNAL_TEXT[signalName] ?? signalName;
}
