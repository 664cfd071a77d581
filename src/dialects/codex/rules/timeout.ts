// Effective timeouts (codex.md §2.1): whole seconds; default per event (600, SessionEnd and
// Interrupt 1); 0 becomes 1; SessionEnd and Interrupt clamped to 1…3.
import type { CodexEventData } from '../catalog-types.js';

export interface TimeoutReading {
  /** Effective seconds. */
  seconds: number;
  /** The written value was raised from 0. */
  zero: boolean;
  /** The written value was above the event's maximum. */
  clamped: boolean;
}

/** `written`: the whole number written, undefined when absent (or not a whole number ≥ 0). */
export function effectiveTimeout(event: CodexEventData, written: number | undefined): TimeoutReading {
  if (written === undefined) return { seconds: event.default_timeout_s, zero: false, clamped: false };
  let seconds = Math.max(written, 1);
  const max = event.max_timeout_s;
  const clamped = max !== null && seconds > max;
  if (clamped) seconds = max;
  return { seconds, zero: written === 0, clamped };
}

/**
 * A value as written, when it is a whole number ≥ 0: a JSON integer, or a TOML integer (smol-toml
 * reads TOML integers as bigint; a TOML number is a float, `2.0`, which Codex refuses).
 */
export function wholeSeconds(v: unknown, toml = false): number | undefined {
  if (typeof v === 'bigint') return v >= 0n ? Number(v) : undefined;
  if (!toml && typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  return undefined;
}
