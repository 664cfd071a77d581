// Redaction of what replay shows or stores of a payload (replay.md §2.2): a member with a
// secret-like key loses its value; in every other string, token shapes and `password=…` values
// become `[REDACTED]`. Hooks always get the real payload; only the copies are redacted.
import { isSecretLikeName } from '../declarations/secrets.js';

export const REDACTED = '[REDACTED]';

const PATTERNS: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /sk-[A-Za-z0-9_-]{20,}/g,
  /gh[pousr]_[A-Za-z0-9]{30,}/g,
  /github_pat_[A-Za-z0-9_]{20,}/g,
  /AKIA[0-9A-Z]{16}/g,
  /xox[abprs]-[A-Za-z0-9-]{10,}/g,
  /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];
const BEARER = /(Bearer )[A-Za-z0-9._~+/=-]{16,}/gi;
const ASSIGNED = /((?:password|passwd|pwd|secret|token|api_key|api-key|apikey)\s*[=:]\s*)[^\s]+/gi;

/** A string with every secret shape replaced. */
export function redactText(text: string): string {
  let out = text;
  for (const re of PATTERNS) out = out.replace(re, REDACTED);
  out = out.replace(BEARER, `$1${REDACTED}`);
  out = out.replace(ASSIGNED, (m, head: string) => (m.slice(head.length) === REDACTED ? m : head + REDACTED));
  return out;
}

/** A redacted copy of a JSON value, and the JSON Pointers (RFC 6901) of the values replaced. */
export function redactValue(value: unknown): { value: unknown; pointers: string[] } {
  const pointers: string[] = [];
  const walk = (v: unknown, at: string): unknown => {
    if (typeof v === 'string') {
      const r = redactText(v);
      if (r !== v) pointers.push(at);
      return r;
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${at}/${i}`));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const ptr = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (isSecretLikeName(k)) {
          out[k] = REDACTED;
          pointers.push(ptr);
        } else out[k] = walk(x, ptr);
      }
      return out;
    }
    return v;
  };
  return { value: walk(value, ''), pointers };
}
