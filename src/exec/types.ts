// The executor contract shared by both dialects' dispatchers. Types only: importing this file
// loads nothing, so dispatch code and its tests stay free of processes.

export interface ExecRequest {
  /** As declared; resolved like Go's exec.LookPath against env.PATH before start. */
  command: string;
  args: string[];
  cwd: string;
  /** The complete environment of the process (allowlist already applied by the caller). */
  env: Record<string, string>;
  /** Written to stdin, then stdin is closed. */
  stdin: string;
  /** Effective timeout; the caller applies the 5 s default. */
  timeoutMs: number;
  /** Aborting kills the hook's process group (the async drain cancels running hooks this way). */
  signal?: AbortSignal;
  /** Called with the child's pid right after spawn (tests use it to check for survivors). */
  onSpawn?: (pid: number) => void;
  /** Who runs (the hook's name), for what is shown about the run (`fire --verbose`); never changes the run. */
  label?: string;
  /** Bytes of stdout kept; default CAPTURE_LIMIT_BYTES (claude keeps 1 MiB: an updatedInput can be large). */
  stdoutLimitBytes?: number;
  /** Bytes of stderr counted as captured; default CAPTURE_LIMIT_BYTES. */
  stderrLimitBytes?: number;
  /**
   * Return the captured stderr text in ExecResult.stderr. The claude dialect asks: there an
   * exit-2 reason is stderr. The fire use case asks for every run, to show it (`--verbose`, the
   * first line after exit 126/127), and hands it on only to a dialect that asked.
   */
  captureStderr?: boolean;
}

export interface ExecResult {
  /** The process could not be started (resolve or spawn failure). No other field is meaningful. */
  startError?: { kind: 'resolve' | 'spawn'; message: string };
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Captured stdout (first 8 KiB, decoded as UTF-8), ending in `...[truncated]` when cut. */
  stdout: string;
  /** Captured stderr (decoded as UTF-8, cut at the limit without a mark); only with captureStderr. */
  stderr?: string;
  /** Bytes the hook wrote, all of them, not only what was captured. */
  stdoutBytes: number;
  stderrBytes: number;
  /** stdout or stderr was cut at its capture limit. */
  truncated: boolean;
  durationMs: number;
}

export type Executor = (req: ExecRequest) => Promise<ExecResult>;

export const DEFAULT_TIMEOUT_MS = 5000;
export const CAPTURE_LIMIT_BYTES = 8 * 1024;
export const TRUNCATION_MARK = '...[truncated]';
