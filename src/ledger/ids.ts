// Identifiers and timestamps of run records (SPEC §5).
import { randomBytes } from 'node:crypto';
import { ExitCode, HookctlError } from '../errors.js';

/**
 * A short unique id that sorts by creation time: 9 base-36 characters of milliseconds since the
 * epoch, then 64 random bits in hex (25 characters, lowercase, safe as a directory name). With a
 * prefix, `<prefix>_<id>`.
 */
export function newId(prefix?: string): string {
  const time = Date.now().toString(36).padStart(9, '0');
  const id = time + randomBytes(8).toString('hex');
  return prefix ? `${prefix}_${id}` : id;
}

/** RFC 3339 in UTC with milliseconds: `2026-11-29T21:00:00.123Z`. */
export function nowRfc3339Millis(now: Date = new Date()): string {
  return now.toISOString();
}

/**
 * A session id names a folder under `sessions/`: letters, digits, `.`, `_` and `-` only (never
 * `.` or `..`), so neither `fire` nor `runs` can reach outside it. Anything else: exit 2.
 */
export function assertSessionId(id: string): string {
  if (/^[A-Za-z0-9._-]{1,128}$/.test(id) && id !== '.' && id !== '..') return id;
  throw new HookctlError(
    'invalid_session',
    `invalid session id ${JSON.stringify(id)}: use letters, digits, ".", "_" and "-"`,
    ExitCode.usage,
  );
}
