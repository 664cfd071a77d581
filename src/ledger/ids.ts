// Identifiers and timestamps of run records (SPEC §5).
import { ExitCode, HookctlError } from '../errors.js';

/**
 * A short unique id that sorts by creation time: 9 base-36 characters of milliseconds since the
 * epoch, then 64 random bits in hex (25 characters, lowercase, safe as a directory name). With a
 * prefix, `<prefix>_<id>`.
 */
export function newId(prefix?: string): string {
  const time = Date.now().toString(36).padStart(9, '0');
  const id = time + randomHex8();
  return prefix ? `${prefix}_${id}` : id;
}

/** A run record's id, the same form in every dialect: `run_<id>`. */
export function newRunId(): string {
  return newId('run');
}

// A dispatch makes an id per run: random bytes are drawn 4 KiB at a time rather than one call
// into the CSPRNG per id (the same source either way). Web Crypto's global, not node:crypto:
// `runs` loads this module for assertSessionId, and the global loads Node's crypto code only at
// the first id, where `import 'node:crypto'` cost every `runs` 2 ms.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomHex8(): string {
  if (poolOffset + 8 > pool.length) {
    globalThis.crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  poolOffset += 8;
  return pool.toString('hex', poolOffset - 8, poolOffset);
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

/** A new session id, when neither `--session` nor the payload names one. */
export function newSessionId(): string {
  return `s_${globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

/** A new dispatch id: every record of one `fire` shares it. */
export function newDispatchId(): string {
  return `d_${globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
}
