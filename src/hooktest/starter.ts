// `hooks test --init EVENT`: the text of a starter test file, one case per hook declared for the
// event, each with a payload skeleton built from the event's payload schema and the expectations
// the hook met when the file was written (so the file passes as it is, and the user edits it
// towards what the hook must do). Pure: the use case fires the cases and hands in what it saw.
import type { CaseResult } from './model.js';
import { parseTextPattern, ranHooks } from './expect.js';

type JsonSchema = Record<string, unknown>;

/**
 * A value of every property of `payloadSchema` except `omit` (the fields the engine fills when
 * absent): "" (or the first allowed value), 0, false, {}, []. Properties whose type the schema
 * leaves open are left out: any value written would be a guess.
 */
export function payloadSkeleton(
  payloadSchema: unknown,
  omit: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const schema = asSchema(payloadSchema);
  const definitions = asSchema(schema.definitions);
  const out: Record<string, unknown> = {};
  for (const [field, raw] of Object.entries(asSchema(schema.properties))) {
    if (omit.has(field)) continue;
    const value = emptyValue(resolve(asSchema(raw), definitions));
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/** The properties `payloadSkeleton` leaves out for having no fixed type (named in a comment instead). */
export function untypedFields(payloadSchema: unknown, omit: ReadonlySet<string> = new Set()): string[] {
  const schema = asSchema(payloadSchema);
  const definitions = asSchema(schema.definitions);
  return Object.entries(asSchema(schema.properties))
    .filter(([field, raw]) => !omit.has(field) && emptyValue(resolve(asSchema(raw), definitions)) === undefined)
    .map(([field]) => field);
}

function resolve(schema: JsonSchema, definitions: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/definitions/'))
    return asSchema(definitions[ref.slice('#/definitions/'.length)]);
  return schema;
}

function emptyValue(schema: JsonSchema): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  switch (types.find((t) => t !== 'null')) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'object':
      return {};
    case 'array':
      return [];
    default:
      return undefined;
  }
}

export interface StarterCase {
  hook: string;
  /** What firing the case gave when the file was written. */
  observed: CaseResult;
  /** This case's payload when it differs from the shared skeleton (the hook's matcher needs it). */
  payload?: Record<string, unknown>;
  /** Observed with `trust_all` (the hook is not trusted yet, so a plain fire skips it). */
  trustAll?: boolean;
}

export interface StarterInput {
  event: string;
  /** Written out, so the file runs the same wherever two dialects share the event's name. */
  dialect: string;
  /** The workspace relative to the test file's folder (`.` when the same). */
  workspace: string;
  payload: Record<string, unknown>;
  /** Payload fields of no fixed type: listed in a comment for the user to fill in. */
  untyped?: string[];
  cases: StarterCase[];
}

export function starterTestFile(input: StarterInput): string {
  const q = (s: string) => JSON.stringify(s); // a JSON string is a YAML double-quoted scalar
  const lines = [
    `# Starter tests for the hooks of ${input.event}, written by \`hookctl hooks test --init ${input.event}\`.`,
    '# Each case runs one hook with a skeleton of the payload. Its expectations are what the hook did',
    '# with that payload when this file was written: change the payload and the expectations to what',
    '# the hook must do, and `hookctl hooks test` keeps checking it (see: hookctl hooks test --help).',
    '# Format: https://github.com/hookctl/hookctl/blob/main/docs/HOOKTEST.md',
    `name: ${q(`${input.event} hooks`)}`,
    `dialect: ${q(input.dialect)}`,
    `workspace: ${q(input.workspace)}`,
    'cases:',
  ];
  for (const c of input.cases) {
    lines.push(
      `  - name: ${q(`${c.hook} with the skeleton payload`)}`,
      `    event: ${q(input.event)}`,
      `    hooks: [${q(c.hook)}]`,
    );
    if (c.trustAll === true)
      lines.push('    trust_all: true # not trusted yet: a plain fire skips it (as fire --trust-all)');
    const payload = c.payload ?? input.payload;
    const untyped = (input.untyped ?? []).filter((f) => !(f in payload));
    lines.push(...yamlMap('payload', payload, '    '));
    if (untyped.length) lines.push(`      # more fields of the payload: ${untyped.join(', ')}`);
    lines.push('    expect:', ...expectLines(c.observed).map((l) => `      ${l}`));
  }
  return lines.join('\n') + '\n';
}

function expectLines(observed: CaseResult): string[] {
  const json = (v: unknown) => JSON.stringify(v);
  if (observed.kind === 'plan') return [`ran: ${json(observed.wouldRun)}`];
  const lines = [`verdict: ${json(observed.verdict)}`, `exit_code: ${observed.exitCode}`];
  // A regex of the exact text would need escaping; the text itself is matched exactly.
  if (observed.reason !== null && parseTextPattern(observed.reason).kind === 'exact')
    lines.push(`reason: ${json(observed.reason)}`);
  lines.push(`ran: ${json(ranHooks(observed.runs))}`);
  const outcomes: Record<string, string> = {};
  for (const r of observed.runs) outcomes[r.hook] = r.outcome;
  if (Object.keys(outcomes).length > 0) lines.push(`outcomes: ${json(outcomes)}`);
  return lines;
}

/** `key:` and one line per entry (JSON values are YAML flow values); `key: {}` when empty. */
function yamlMap(key: string, map: Record<string, unknown>, indent: string): string[] {
  const entries = Object.entries(map);
  if (entries.length === 0) return [`${indent}${key}: {}`];
  return [`${indent}${key}:`, ...entries.map(([k, v]) => `${indent}  ${JSON.stringify(k)}: ${JSON.stringify(v)}`)];
}

function asSchema(v: unknown): JsonSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonSchema) : {};
}
