// The scalar fields of a compozy declaration (SPEC §2.1): name, event, mode, priority, timeout.
import {
  compozyEvent,
  compozyEvents,
  eventOutsideRelease,
  REMOVED_LEGACY_EVENTS,
  type CompozyEvent,
} from '../events.js';
import { didYouMean } from '../../../matching/suggest.js';
import { nanosecondsToMs, parseGoDuration } from '../../../declarations/duration.js';
import type { Mode } from '../../../declarations/model.js';
import type { CompozySource } from '../model.js';
import { absent, describe, display, q, type Checker, type Table } from './checker.js';
import type { RawHook } from './declaration.js';
import { DEFAULT_PRIORITY } from './ordering.js';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

export function readName(check: Checker, value: Table, raw: RawHook): string | undefined {
  if (raw.generatedName !== undefined) return raw.generatedName;
  const written = check.string(value, 'name', []);
  if (written === undefined && !absent(value.name)) return undefined; // wrong type, reported
  const name = (written ?? '').trim();
  if (name === '') {
    check.error('name_required', 'hooks: hook name is required', ['name']);
    return undefined;
  }
  return name;
}

export function readEvent(check: Checker, value: Table, source: CompozySource): CompozyEvent | undefined {
  const written = check.string(value, 'event', []);
  if (written === undefined && !absent(value.event)) return undefined; // wrong type, reported
  const name = (written ?? '').trim();
  const replacement = source === 'skill' ? REMOVED_LEGACY_EVENTS[name] : undefined;
  if (replacement !== undefined) {
    check.error('removed_event', `hook event ${q(name)} was removed; use ${q(replacement)}`, ['event']);
    return undefined;
  }
  const event = compozyEvent(name);
  // An event another release has names that release (SPEC §10); one no release has gets the
  // closest events of the selected release, when one is close (SPEC §7.1).
  if (event === undefined) {
    const hint = didYouMean(
      name,
      compozyEvents().map((e) => e.name),
    );
    check.error('invalid_event', eventOutsideRelease(name) ?? `hooks: invalid hook event ${q(name)}${hint}`, ['event']);
  }
  return event;
}

export function readMode(check: Checker, value: Table, event: CompozyEvent | undefined): Mode | undefined {
  const written = check.string(value, 'mode', []);
  if (written === undefined) return absent(value.mode) ? 'async' : undefined;
  const mode = written.trim();
  if (mode === '') return 'async';
  if (mode !== 'sync' && mode !== 'async') {
    check.error('invalid_mode', `hooks: invalid hook mode ${q(mode)}`, ['mode']);
    return undefined;
  }
  if (mode === 'sync' && event !== undefined && !event.sync_eligible) {
    check.error('sync_on_async_event', `${check.hookRef} cannot use sync mode for async-only event ${q(event.name)}`, [
      'mode',
    ]);
  }
  return mode;
}

export function readPriority(check: Checker, value: Table, source: CompozySource): number {
  const p = value.priority;
  if (absent(p)) return DEFAULT_PRIORITY[source];
  if (typeof p === 'bigint' || (typeof p === 'number' && Number.isInteger(p) && (p < INT32_MIN || p > INT32_MAX))) {
    check.error('priority_out_of_range', `hooks: priority ${String(p)} is outside int32 range`, ['priority']);
  } else if (typeof p !== 'number' || !Number.isInteger(p)) {
    check.error('invalid_field_type', `${check.hookRef} priority must be an integer, got ${describe(p)}`, ['priority']);
  } else return p;
  return DEFAULT_PRIORITY[source];
}

export function readTimeout(check: Checker, value: Table): number {
  const t = value.timeout;
  if (absent(t)) return 0;
  const example = 'a Go duration such as "250ms", "5s" or "1m30s"';
  if (typeof t !== 'string') {
    check.error('invalid_timeout', `${check.hookRef} timeout ${display(t)} is not a duration: write ${example}`, [
      'timeout',
    ]);
    return 0;
  }
  const ns = parseGoDuration(t.trim());
  if (ns === undefined) {
    check.error('invalid_timeout', `${check.hookRef} timeout ${q(t)} is not a valid duration: write ${example}`, [
      'timeout',
    ]);
    return 0;
  }
  if (ns < 0n) {
    check.error('negative_timeout', `${check.hookRef} timeout must be non-negative`, ['timeout']);
    return 0;
  }
  return nanosecondsToMs(ns);
}
