// Identifiers and timestamps of run records (SPEC §5).
import { randomBytes } from 'node:crypto';

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
