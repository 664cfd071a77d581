// A written compozy matcher (SPEC §2.2): which fields the event accepts, autonomy fields under
// matcher.autonomy, retired keys, AGENT.md's forced agent_name, values and patterns. Evaluating a
// matcher against a payload is ../matcher.ts.
import { AUTONOMY_FIELDS, knownMatcherFields, type CompozyEvent } from '../events.js';
import { isValidPattern } from '../../../matching/pathmatch.js';
import type { MatcherValue } from '../../../declarations/model.js';
import type { PathSeg } from '../../../declarations/source-file.js';
import { absent, describe, isTable, q, type Checker, type Table } from './checker.js';
import type { RawHook } from './declaration.js';
import { SOURCE_RULES } from './sources.js';

const RETIRED_MATCHER_KEYS = new Set(['compaction_reason', 'compaction_strategy']);
const AUTONOMY = new Set(AUTONOMY_FIELDS);

interface MatcherEntry {
  field: string;
  value: unknown;
  at: PathSeg[];
}

export function readMatcher(
  check: Checker,
  value: Table,
  raw: RawHook,
  event: CompozyEvent | undefined,
): Record<string, MatcherValue> | undefined {
  // Most declarations have no matcher: nothing below would check or add anything.
  if (absent(value.matcher) && raw.agentName === undefined) return {};
  const table = check.table(value, 'matcher', []) ?? {};
  if (!absent(value.matcher) && !isTable(value.matcher)) return undefined;
  const rules = SOURCE_RULES[raw.source];
  const entries = new Map<string, MatcherEntry>();

  for (const [field, fieldValue] of Object.entries(table)) {
    const at = ['matcher', field];
    if (field === 'autonomy') continue;
    if (RETIRED_MATCHER_KEYS.has(field)) {
      retiredKeyWarning(check, field, rules.retiredKeys, at);
      continue;
    }
    if (AUTONOMY.has(field)) {
      if (rules.flatAutonomy === 'error') {
        check.error(
          'autonomy_field_not_nested',
          `${check.hookRef} matcher.${field} must be declared under matcher.autonomy`,
          at,
        );
        continue;
      }
      check.warn(
        'flat_autonomy_field',
        `${check.hookRef} matcher.${field} is an autonomy field: move it under matcher.autonomy`,
        at,
      );
    }
    entries.set(field, { field, value: fieldValue, at });
  }

  const autonomy = check.table(table, 'autonomy', ['matcher']);
  if (autonomy !== undefined) {
    const strangers: string[] = [];
    for (const [field, fieldValue] of Object.entries(autonomy)) {
      const at = ['matcher', 'autonomy', field];
      if (!AUTONOMY.has(field)) {
        strangers.push(field);
        continue;
      }
      if (entries.has(field)) {
        check.error(
          'autonomy_field_conflict',
          `${check.hookRef} matcher field ${q(field)} is set both flat and under matcher.autonomy`,
          at,
        );
        continue;
      }
      entries.set(field, { field, value: fieldValue, at });
    }
    if (strangers.length > 0) {
      check.error(
        'unknown_autonomy_field',
        `hooks: matcher.autonomy fields [${strangers.sort().join(', ')}] are not autonomy correlation fields`,
        ['matcher', 'autonomy', strangers[0]!],
      );
    }
  }

  if (raw.agentName !== undefined) forceAgentName(check, entries, raw.agentName);

  // Values: tool_read_only is a boolean, every other field a string; a blank string is unset.
  const matcher: Record<string, MatcherValue> = {};
  const allowed = event ? allowedFields(event) : undefined;
  const notAllowed: MatcherEntry[] = [];
  for (const entry of entries.values()) {
    if (
      allowed !== undefined
        ? !allowed.has(entry.field)
        : !knownMatcherFields().has(entry.field) && !AUTONOMY.has(entry.field)
    ) {
      if (!isBlank(entry.value)) notAllowed.push(entry);
      continue;
    }
    const v = matcherValue(check, entry);
    if (v !== undefined) matcher[entry.field] = v;
  }
  if (notAllowed.length > 0 && event !== undefined) {
    const fields = notAllowed.map((e) => e.field).sort();
    check.error(
      'matcher_field_not_allowed',
      `hooks: matcher fields [${fields.join(', ')}] are not valid for event ${q(event.name)}`,
      notAllowed[0]!.at,
    );
  }
  return matcher;
}

const allowedByEvent = new Map<string, ReadonlySet<string>>();

function allowedFields(event: CompozyEvent): ReadonlySet<string> {
  let allowed = allowedByEvent.get(event.name);
  if (allowed === undefined) {
    allowed = new Set(event.matcher_fields);
    allowedByEvent.set(event.name, allowed);
  }
  return allowed;
}

function retiredKeyWarning(check: Checker, field: string, policy: 'retired' | 'shim', at: PathSeg[]): void {
  if (policy === 'retired') {
    check.warn(
      'retired_matcher_key',
      `${check.hookRef} matcher.${field} is a retired matcher key: it is ignored and the hook runs for every compaction; use compaction_trigger`,
      at,
    );
  } else {
    check.warn(
      'retired_matcher_key_shim',
      `${check.hookRef} matcher.${field} is dropped by a compatibility shim that goes away in v0.6.0: the hook runs for every compaction; replace it with compaction_trigger`,
      at,
    );
  }
}

/** AGENT.md: every hook matches its agent; another explicit agent_name is an error. */
function forceAgentName(check: Checker, entries: Map<string, MatcherEntry>, agentName: string): void {
  const written = entries.get('agent_name');
  if (
    written !== undefined &&
    typeof written.value === 'string' &&
    written.value.trim() !== '' &&
    written.value.trim() !== agentName
  ) {
    check.error('matcher_agent_name_mismatch', `matcher.agent_name must match agent name ${q(agentName)}`, written.at);
  }
  entries.set('agent_name', { field: 'agent_name', value: agentName, at: written?.at ?? ['matcher'] });
}

/** A matcher value that sets nothing: empty or white space, or null. */
function isBlank(v: unknown): boolean {
  return absent(v) || (typeof v === 'string' && v.trim() === '');
}

function matcherValue(check: Checker, entry: MatcherEntry): MatcherValue | undefined {
  const { field, value, at } = entry;
  if (absent(value)) return undefined;
  if (field === 'tool_read_only') {
    if (typeof value === 'boolean') return value;
    check.error(
      'invalid_matcher_value',
      `${check.hookRef} matcher.tool_read_only must be a boolean, got ${describe(value)}`,
      at,
    );
    return undefined;
  }
  if (typeof value !== 'string') {
    check.error(
      'invalid_matcher_value',
      `${check.hookRef} matcher.${field} must be a string, got ${describe(value)}`,
      at,
    );
    return undefined;
  }
  const pattern = value.trim();
  if (pattern === '') return undefined;
  if (!isValidPattern(pattern)) {
    check.error(
      'invalid_matcher_pattern',
      `hooks: matcher.${field} pattern ${q(pattern)} is invalid: syntax error in pattern`,
      at,
    );
    return undefined;
  }
  return pattern;
}
