// Typed errors a user can cause. Each carries a stable code and the exit code it maps to, so the
// base command prints one line (or one compact JSON object) and exits the same way with or
// without --json.

export const ExitCode = {
  ok: 0,
  /** The domain answer is no: validate found errors, fire denied/blocked, info found nothing. */
  no: 1,
  /** Usage error, bad payload, or fire refusing because declarations have errors. */
  usage: 2,
  /** Fire's dispatch failed: a required hook failed, depth exceeded. */
  dispatchFailed: 3,
  /** Fire's final cosh decision is ask. */
  ask: 4,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class HookctlError extends Error {
  readonly code: string;
  readonly exit: number;
  /** Extra lines printed after the message (e.g. the list of declaration errors). */
  readonly details: string[];
  /** Extra JSON fields for `{error: {...}}` (e.g. diagnostics). */
  readonly data?: Record<string, unknown>;

  constructor(
    code: string,
    message: string,
    exit: number,
    opts: { details?: string[]; data?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'HookctlError';
    this.code = code;
    this.exit = exit;
    this.details = opts.details ?? [];
    this.data = opts.data;
  }
}

export function usageError(message: string, code = 'usage_error'): HookctlError {
  return new HookctlError(code, message, ExitCode.usage);
}

/** `unknown event "<e>" for dialect "<d>"…` (exit 2, `unknown_event`): an event the named dialect's catalog lacks. */
export function eventNotInDialectError(event: string, dialect: string, hint = ''): HookctlError {
  return new HookctlError(
    'unknown_event',
    `unknown event ${JSON.stringify(event)} for dialect "${dialect}"${hint} (see: hookctl hooks events --dialect ${dialect})`,
    ExitCode.usage,
  );
}
