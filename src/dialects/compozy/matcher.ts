// Evaluating a compozy declaration's matcher against an event payload (SPEC §2.2, runtime side).
// Which fields an event accepts, and whether a pattern is well formed, is validation's business;
// this file only answers "does this payload pass this matcher", field by field.

import type { MatcherValue } from '../../declarations/model.js';
import { hasWildcard, pathMatch } from '../../matching/pathmatch.js';

/** One matcher field's verdict, as `hooks fire --dry-run` shows it. */
export interface FieldVerdict {
  field: string;
  pattern: MatcherValue;
  /** The payload value the field read; undefined when absent. */
  value: unknown;
  matched: boolean;
}

export interface MatcherVerdict {
  matched: boolean;
  fields: FieldVerdict[];
}

/**
 * The payload field a matcher field reads when the event's catalog names none (SPEC §2.2 "How
 * each matcher field reads the payload"). The catalog's `matcher_payload_fields` come first
 * (SPEC §10: `message_role` reads `role`, `sync_direction` reads `direction`, …). Autonomy fields
 * (task_id, run_id, …) and every other field read the field of the same name. A dotted result
 * is a nested path.
 */
export function payloadFieldFor(field: string): string {
  switch (field) {
    case 'workspace_root':
      return 'workspace';
    case 'tool_read_only':
      return 'read_only';
    case 'tool_name':
      return 'tool_call.kind';
    case 'acp_event_type':
      return 'record_type';
    case 'message_delta_type':
      return 'delta_type';
    case 'compaction_trigger':
      return 'trigger';
    default:
      return field;
  }
}

/**
 * All set fields must match (AND). Verdicts come in the matcher's key order. `paths`: the
 * event's matcher field → payload path (its catalog entry's `matcher_payload_fields`).
 */
export function evaluateMatcher(
  matcher: Record<string, MatcherValue>,
  payload: Record<string, unknown>,
  paths: Readonly<Record<string, string>> = {},
): MatcherVerdict {
  const fields: FieldVerdict[] = [];
  let matched = true;
  for (const [field, pattern] of Object.entries(matcher)) {
    const path = Object.hasOwn(paths, field) ? paths[field]! : payloadFieldFor(field);
    const value = readPayloadField(payload, path);
    const fieldMatched = valueMatches(pattern, value);
    fields.push({ field, pattern, value, matched: fieldMatched });
    if (!fieldMatched) matched = false;
  }
  return { matched, fields };
}

/** Whether one matcher value accepts one payload value (undefined = absent). */
export function valueMatches(pattern: MatcherValue, value: unknown): boolean {
  // Booleans (tool_read_only) are an exact match against a boolean; absent is not `false`.
  if (typeof pattern === 'boolean') return value === pattern;
  if (pattern === '' || pattern === '*') return true;
  // A string pattern reads a number as its text (String(42) = "42"), so the pattern `4*` matches
  // the number 42: the spec is silent, and this is what a user writing a pattern expects. Booleans, objects, null and absent values never match a non-empty
  // pattern.
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else return false;
  if (!hasWildcard(pattern)) return pattern === text;
  try {
    return pathMatch(pattern, text);
  } catch {
    // Validation rejects malformed patterns; one that slips through filters everything out.
    return false;
  }
}

const pathSegmentsCache = new Map<string, string[]>();

/** Reads `a.b.c` from nested objects; undefined when any step is missing or not an object. */
function readPayloadField(payload: Record<string, unknown>, path: string): unknown {
  if (!path.includes('.')) return ownValue(payload, path);
  let segments = pathSegmentsCache.get(path);
  if (segments === undefined) {
    segments = path.split('.');
    pathSegmentsCache.set(path, segments);
  }
  let current: unknown = payload;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = ownValue(current as Record<string, unknown>, segment);
  }
  return current;
}

/** Own properties only: a payload key named `constructor` or `toString` must not read Object's. */
function ownValue(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
