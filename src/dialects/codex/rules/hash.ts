// The trust hash (codex.md §2.6): the normalized handler inside its identity, as compact JSON with
// every object's keys sorted, SHA-256, `sha256:` + hex. Codex computes it the same way
// (codex-rs/config fingerprint: TOML value → JSON, keys sorted recursively, serde_json::to_vec).
import { createHash } from 'node:crypto';
import type { CodexEventData } from '../catalog-types.js';

/**
 * A float as written: a TOML float (smol-toml reads integers as bigint with `integersAsBigInt:
 * true`, so a plain number there is a float) or a JSON number written with a fraction or an
 * exponent. Codex keeps it a float: serde_json writes `1.0`, not `1`, and refuses it where a
 * whole number is due (`timeout`).
 */
export class TomlFloat {
  constructor(readonly value: number) {}
}

/** What the hashed identity holds: JSON values, with bigint integers and TOML floats. */
export type HashValue =
  string | number | bigint | boolean | null | TomlFloat | HashValue[] | { [key: string]: HashValue };

/** Compact JSON with sorted keys; strings as JSON.stringify writes them (non-ASCII unescaped, as serde_json). */
export function canonicalJson(v: HashValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return JSON.stringify(v);
  if (v instanceof TomlFloat) {
    const n = v.value;
    if (!Number.isFinite(n)) return 'null';
    return Number.isInteger(n) && Math.abs(n) < 1e16 ? `${n}.0` : JSON.stringify(n);
  }
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(v).sort(compareUtf8);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k]!)}`).join(',')}}`;
}

/** serde_json's BTreeMap orders keys by bytes; for UTF-16 code units that is code point order. */
function compareUtf8(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return Buffer.compare(x, y);
}

export function sha256Of(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** The normalized handler's inputs: everything effective already decided by the caller. */
export interface HashHandler {
  type: 'command' | 'mcp_tool';
  /** Command: the Unix command as written, before ${PLUGIN_ROOT} replacement. */
  command?: string;
  /** Effective seconds (§2.1). */
  timeout: number;
  /** As written: false when absent (true on SessionEnd too). */
  async?: boolean;
  statusMessage?: string | null;
  additionalContextLimit?: number | bigint | null;
  server?: string;
  tool?: string;
  input?: HashValue;
}

/** Codex's default additionalContextLimit: a handler that sets it to this hashes as one that does not. */
export const DEFAULT_CONTEXT_LIMIT = 2500;

/** The identity object of §2.6 step 2. */
export function hashIdentity(event: CodexEventData, groupMatcher: string | null, h: HashHandler): HashValue {
  const handler: { [key: string]: HashValue } = { type: h.type, timeout: h.timeout };
  if (h.type === 'command') {
    handler.command = h.command ?? '';
    handler.async = h.async === true;
    if (h.statusMessage !== undefined && h.statusMessage !== null) handler.statusMessage = h.statusMessage;
    const limit = h.additionalContextLimit;
    if (event.context_limit && limit !== undefined && limit !== null && Number(limit) !== DEFAULT_CONTEXT_LIMIT) {
      handler.additionalContextLimit = limit;
    }
  } else {
    handler.server = h.server ?? '';
    handler.tool = h.tool ?? '';
    handler.input = h.input ?? {};
    if (h.statusMessage !== undefined && h.statusMessage !== null) handler.statusMessage = h.statusMessage;
  }
  const identity: { [key: string]: HashValue } = { event_name: event.label, hooks: [handler] };
  if (event.matcher_field !== null && groupMatcher !== null) identity.matcher = groupMatcher;
  return identity;
}

/** The hashed text and `current_hash` of one handler. */
export function codexHookHash(
  event: CodexEventData,
  groupMatcher: string | null,
  h: HashHandler,
): { hash_input: string; current_hash: string } {
  const text = canonicalJson(hashIdentity(event, groupMatcher, h));
  return { hash_input: text, current_hash: sha256Of(text) };
}
