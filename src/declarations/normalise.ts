// One raw compozy hook declaration → a validated Declaration, or diagnostics (SPEC §2.1, §2.2).
// Every rule of the field table and of matcher validation lives here, with the exact error texts
// SPEC.md quotes; the loaders only find declarations and say where each key is written.
//
// A declaration with any error yields no Declaration; one with only warnings still yields.
// Checking never stops at the first problem: every problem of a declaration is reported.
import {
  AUTONOMY_FIELDS,
  compozyEvent,
  KNOWN_MATCHER_FIELDS,
  REMOVED_LEGACY_EVENTS,
  type CompozyEvent,
} from '../events/compozy.js';
import { isValidPattern } from '../matching/pathmatch.js';
import type { DiagnosticCode } from './codes.js';
import type { Diagnostic } from './diagnostics.js';
import { nanosecondsToMs, parseGoDuration } from './duration.js';
import type {
  CompozySource,
  Declaration,
  DeclarationStatus,
  ExecutorKind,
  MatcherValue,
  Mode,
  SkillSource,
} from './model.js';
import { expandTemplates } from './compozy/templates.js';
import { DEFAULT_PRIORITY } from './ordering.js';
import { ENV_NAME_RE, isSecretLikeName, parseSecretRef } from './secrets.js';
import { makeDiagnostic, type Locator, type PathSeg, type Position } from './source-file.js';

/** A declaration as a loader found it: parsed data plus where it came from. */
export interface RawHook {
  source: CompozySource;
  skillSource?: SkillSource;
  file: string;
  /** Where the declaration starts (its [[...]] header, list item or JSON object). */
  position: Position;
  /** The declaration's path inside its file, e.g. ['hooks', 'declarations', 2]. */
  path: readonly PathSeg[];
  /** Positions of keys in the file (absolute paths). */
  locate: Locator;
  /** The declaration's table as parsed. */
  value: unknown;
  /** Working directory of the hook process. */
  cwd: string;
  /** Prepended to every message (AGENT.md: `agent.hooks[<i>]: `). */
  messagePrefix?: string;
  /** SKILL.md: the name the loader gives the hook (`<skill>` or `<skill>#<n>`). */
  generatedName?: string;
  /** AGENT.md: the agent's name, forced into matcher.agent_name. */
  agentName?: string;
  /** Extension manifests: templates expand against this root and environment. */
  extension?: { name: string; root: string; env: NodeJS.ProcessEnv };
  /** Set by the loader: replaced by a later declaration, or a marketplace hook not allowed. */
  status?: { status: 'overridden' | 'blocked'; why: string };
}

export interface NormaliseResult {
  declaration?: Declaration;
  diagnostics: Diagnostic[];
  /** The command as written (before templates) and where, for extension command resolution. */
  command?: { written: string; at: readonly PathSeg[] };
}

// ---- what each source may write (SPEC §2.1, §2.4, §6) ----

const EXECUTOR_FIELDS = ['command', 'args', 'env', 'secret_env'] as const;
const COMMON_KEYS = [
  'name',
  'event',
  'mode',
  'required',
  'priority',
  'timeout',
  'matcher',
  ...EXECUTOR_FIELDS,
  'executor',
];

interface SourceRules {
  keys: ReadonlySet<string>;
  /** Autonomy fields written flat under matcher: accepted with a warning, or an error. */
  flatAutonomy: 'warn' | 'error';
  /** compaction_reason/compaction_strategy: dropped with "retired matcher key", or by the v0.6.0 shim. */
  retiredKeys: 'retired' | 'shim';
}

const SOURCE_RULES: Readonly<Record<CompozySource, SourceRules>> = {
  native: { keys: new Set([...COMMON_KEYS, 'enabled', 'metadata']), flatAutonomy: 'warn', retiredKeys: 'retired' },
  config: { keys: new Set([...COMMON_KEYS, 'enabled', 'metadata']), flatAutonomy: 'warn', retiredKeys: 'retired' },
  agent_definition: {
    keys: new Set([...COMMON_KEYS, 'enabled', 'metadata']),
    flatAutonomy: 'warn',
    retiredKeys: 'shim',
  },
  // Extensions: no `enabled`, no user `metadata` (the loader sets `extension = <name>`).
  extension: { keys: new Set(COMMON_KEYS), flatAutonomy: 'error', retiredKeys: 'retired' },
  // SKILL.md: no name (generated), required, enabled, metadata or executor.
  skill: {
    keys: new Set(['event', 'mode', 'priority', 'timeout', 'command', 'args', 'env', 'secret_env', 'matcher']),
    flatAutonomy: 'error',
    retiredKeys: 'shim',
  },
};

const EXECUTOR_TABLE_KEYS = new Set(['kind', ...EXECUTOR_FIELDS]);
const NOT_IMPLEMENTED_KINDS = new Set(['http', 'agent', 'wasm']);
const RETIRED_MATCHER_KEYS = new Set(['compaction_reason', 'compaction_strategy']);
const AUTONOMY = new Set(AUTONOMY_FIELDS);
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

const q = (s: string): string => JSON.stringify(s);

export function normaliseCompozyHook(raw: RawHook): NormaliseResult {
  const check = new Checker(raw);
  const value = raw.value;
  if (!isTable(value)) {
    check.error('declaration_not_a_table', `hooks: hook declaration must be a table, got ${describe(value)}`, []);
    return { diagnostics: check.diagnostics };
  }
  const rules = SOURCE_RULES[raw.source];

  const name = readName(check, value, raw);
  check.named(name);

  for (const key of Object.keys(value)) {
    if (rules.keys.has(key)) continue;
    const why = key === 'source' || key === 'skill_source' ? ' (it is assigned from where the declaration lives)' : '';
    check.error('unknown_field', `${check.hookRef} has unknown field ${q(key)}${why}`, [key]);
  }

  const event = readEvent(check, value, raw.source);
  const mode = readMode(check, value, event);
  const required = rules.keys.has('required') ? (check.bool(value, 'required', []) ?? false) : false;
  if (required && mode === 'async')
    check.error('required_async', `${check.hookRef} cannot be required in async mode`, ['required']);
  const priority = readPriority(check, value, raw.source);
  const timeoutMs = readTimeout(check, value);
  const enabled = rules.keys.has('enabled') ? (check.bool(value, 'enabled', []) ?? true) : true;
  const metadata = raw.extension
    ? { extension: raw.extension.name }
    : rules.keys.has('metadata')
      ? (check.stringMap(value, 'metadata', []) ?? {})
      : {};
  const executor = readExecutor(check, value, raw);
  const matcher = readMatcher(check, value, raw, event);

  if (check.failed) return { diagnostics: check.diagnostics, command: check.command };
  const declaration: Declaration = {
    dialect: 'compozy',
    name: name!,
    event: event!.name,
    source: raw.source,
    mode: mode!,
    required,
    priority,
    timeout_ms: timeoutMs,
    enabled,
    metadata,
    matcher: matcher!,
    executor_kind: executor!.kind,
    command: executor!.command,
    args: executor!.args,
    env: executor!.env,
    secret_env: executor!.secretEnv,
    cwd: raw.cwd,
    // Written out rather than spread from a temporary: one object less per declaration.
    location:
      raw.position.column !== undefined
        ? { file: raw.file, line: raw.position.line, column: raw.position.column }
        : { file: raw.file, line: raw.position.line },
    status: 'active',
  };
  if (raw.skillSource !== undefined) declaration.skill_source = raw.skillSource;
  if (raw.extension) declaration.extension = raw.extension.name;
  const status = statusOf(raw, enabled);
  declaration.status = status.status;
  if (status.why !== undefined) declaration.why = status.why;
  return { declaration, diagnostics: check.diagnostics, command: check.command };
}

/** The trimmed string name a raw declaration carries, for duplicate and overlay detection. */
export function rawHookName(value: unknown): string | undefined {
  if (!isTable(value) || typeof value.name !== 'string') return undefined;
  const name = value.name.trim();
  return name === '' ? undefined : name;
}

function statusOf(raw: RawHook, enabled: boolean): { status: DeclarationStatus; why?: string } {
  if (raw.status) return raw.status;
  if (!enabled) return { status: 'disabled', why: 'enabled = false' };
  return { status: 'active' };
}

// ---- fields ----

function readName(check: Checker, value: Table, raw: RawHook): string | undefined {
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

function readEvent(check: Checker, value: Table, source: CompozySource): CompozyEvent | undefined {
  const written = check.string(value, 'event', []);
  if (written === undefined && !absent(value.event)) return undefined; // wrong type, reported
  const name = (written ?? '').trim();
  const replacement = source === 'skill' ? REMOVED_LEGACY_EVENTS[name] : undefined;
  if (replacement !== undefined) {
    check.error('removed_event', `hook event ${q(name)} was removed; use ${q(replacement)}`, ['event']);
    return undefined;
  }
  const event = compozyEvent(name);
  if (event === undefined) check.error('invalid_event', `hooks: invalid hook event ${q(name)}`, ['event']);
  return event;
}

function readMode(check: Checker, value: Table, event: CompozyEvent | undefined): Mode | undefined {
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

function readPriority(check: Checker, value: Table, source: CompozySource): number {
  const p = value.priority;
  if (absent(p)) return DEFAULT_PRIORITY[source];
  if (typeof p === 'bigint' || (typeof p === 'number' && Number.isInteger(p) && (p < INT32_MIN || p > INT32_MAX))) {
    check.error('priority_out_of_range', `hooks: priority ${String(p)} is outside int32 range`, ['priority']);
  } else if (typeof p !== 'number' || !Number.isInteger(p)) {
    check.error('invalid_field_type', `${check.hookRef} priority must be an integer, got ${describe(p)}`, ['priority']);
  } else return p;
  return DEFAULT_PRIORITY[source];
}

function readTimeout(check: Checker, value: Table): number {
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

interface ExecutorFields {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  secretEnv?: Record<string, string>;
}

interface Executor {
  kind: ExecutorKind;
  command: string;
  args: string[];
  env: Record<string, string>;
  secretEnv: Record<string, string>;
}

function readExecutorFields(check: Checker, table: Table, base: PathSeg[]): ExecutorFields {
  return {
    command: check.string(table, 'command', base),
    args: check.stringList(table, 'args', base),
    env: check.stringMap(table, 'env', base),
    secretEnv: check.stringMap(table, 'secret_env', base),
  };
}

function specified(f: ExecutorFields): boolean {
  return (
    (f.command ?? '').trim() !== '' ||
    (f.args ?? []).length > 0 ||
    Object.keys(f.env ?? {}).length > 0 ||
    Object.keys(f.secretEnv ?? {}).length > 0
  );
}

function readExecutor(check: Checker, value: Table, raw: RawHook): Executor | undefined {
  const top = readExecutorFields(check, value, []);
  let nested: ExecutorFields = {};
  let kindWritten = '';
  const table = SOURCE_RULES[raw.source].keys.has('executor') ? check.table(value, 'executor', []) : undefined;
  if (table !== undefined) {
    for (const key of Object.keys(table)) {
      if (!EXECUTOR_TABLE_KEYS.has(key)) {
        check.error('unknown_field', `${check.hookRef} has unknown field ${q(`executor.${key}`)}`, ['executor', key]);
      }
    }
    nested = readExecutorFields(check, table, ['executor']);
    kindWritten = (check.string(table, 'kind', ['executor']) ?? '').trim();
  }
  const topSet = specified(top);
  const nestedSet = specified(nested);
  if (topSet && nestedSet) {
    check.error(
      'executor_fields_conflict',
      'hook executor fields must be declared either at the top level or under executor, not both',
      ['executor'],
    );
  }
  const fields = nestedSet ? nested : top;
  const base: PathSeg[] = nestedSet ? ['executor'] : [];
  const command = (fields.command ?? '').trim();
  const args = fields.args ?? [];
  const env = fields.env ?? {};
  const secretEnv = fields.secretEnv ?? {};

  const kind = resolveExecutorKind(check, raw, kindWritten, command, base);
  if (kind !== undefined && kind !== 'subprocess' && specified(fields)) {
    check.error(
      'executor_fields_require_subprocess',
      `${check.hookRef} shell command fields require a subprocess executor`,
      ['executor', 'kind'],
    );
  }
  checkEnv(check, env, [...base, 'env']);
  checkSecretEnv(check, secretEnv, [...base, 'secret_env']);
  check.command = { written: command, at: [...base, 'command'] };
  if (kind === undefined) return undefined;
  const executor: Executor = { kind, command, args, env, secretEnv };
  return raw.extension ? expandExtensionTemplates(check, raw.extension, base, executor) : executor;
}

function resolveExecutorKind(
  check: Checker,
  raw: RawHook,
  written: string,
  command: string,
  base: PathSeg[],
): ExecutorKind | undefined {
  if (raw.source === 'skill') {
    // SKILL.md hooks have no executor: always a subprocess, and the command is required.
    if (command === '') check.error('command_required', 'command is required', ['command']);
    return 'subprocess';
  }
  let kind: ExecutorKind;
  if (written === '') {
    if (command !== '') kind = 'subprocess';
    else if (raw.source === 'native') kind = 'native';
    else {
      check.error('executor_kind_required', `${check.hookRef} executor kind is required`, ['executor']);
      return undefined;
    }
  } else if (written === 'subprocess' || written === 'native') kind = written;
  else if (NOT_IMPLEMENTED_KINDS.has(written)) {
    check.error('executor_not_implemented', 'hooks: executor not implemented', ['executor', 'kind']);
    return undefined;
  } else {
    check.error('invalid_executor_kind', `hooks: invalid hook executor kind ${q(written)}`, ['executor', 'kind']);
    return undefined;
  }
  if (kind === 'native' && raw.source !== 'native') {
    check.error('native_executor_forbidden', `${check.hookRef} only native sources may use native executors`, [
      'executor',
      'kind',
    ]);
  }
  if (kind === 'subprocess' && command === '') {
    check.error('command_required', `${check.hookRef} subprocess executor requires a command`, [...base, 'command']);
  }
  return kind;
}

function checkEnv(check: Checker, env: Record<string, string>, at: PathSeg[]): void {
  for (const key of Object.keys(env)) {
    const name = key.trim();
    if (name === '')
      check.error('invalid_env_name', `${check.hookRef} env contains an empty environment variable name`, at);
    else if (!ENV_NAME_RE.test(name)) {
      check.error('invalid_env_name', `${check.hookRef} env.${name} must be an environment variable name`, [
        ...at,
        key,
      ]);
    } else if (isSecretLikeName(name)) {
      check.error('secret_env_name', `${check.hookRef} env.${name} must move secret-like values to secret_env`, [
        ...at,
        key,
      ]);
    }
  }
}

function checkSecretEnv(check: Checker, secretEnv: Record<string, string>, at: PathSeg[]): void {
  for (const [key, ref] of Object.entries(secretEnv)) {
    const name = key.trim();
    if (name === '') {
      check.error('invalid_env_name', `${check.hookRef} secret_env contains an empty environment variable name`, at);
      continue;
    }
    if (!ENV_NAME_RE.test(name)) {
      check.error('invalid_env_name', `${check.hookRef} secret_env.${name} must be an environment variable name`, [
        ...at,
        key,
      ]);
      continue;
    }
    const parsed = parseSecretRef(ref);
    if (parsed === undefined) {
      check.error(
        'invalid_secret_ref',
        `${check.hookRef} secret_env.${name} is invalid: unsupported secret ref ${q(ref.trim())} (use env:NAME or vault:hooks/<path>)`,
        [...at, key],
      );
    } else if (parsed.kind === 'vault') {
      check.warn(
        'vault_ref_unresolvable',
        `${check.hookRef} secret_env.${name} refers to ${q(parsed.ref)}, which hookctl cannot resolve: firing this hook will fail`,
        [...at, key],
      );
    }
  }
}

/** `{{config_dir}}` and `{{env:NAME}}` in command, args items and env values (extensions only). */
function expandExtensionTemplates(
  check: Checker,
  ext: { root: string; env: NodeJS.ProcessEnv },
  base: PathSeg[],
  executor: Executor,
): Executor {
  const ctx = { configDir: ext.root, env: ext.env };
  const expand = (text: string, at: PathSeg[]): string => {
    const result = expandTemplates(text, ctx);
    if (result.ok) return result.value;
    check.error(result.code, result.message, at);
    return text;
  };
  const env: Record<string, string> = {};
  for (const [key, text] of Object.entries(executor.env)) env[key] = expand(text, [...base, 'env', key]);
  return {
    ...executor,
    command: expand(executor.command, [...base, 'command']).trim(),
    args: executor.args.map((arg, i) => expand(arg, [...base, 'args', i])),
    env,
  };
}

// ---- matcher (SPEC §2.2) ----

interface MatcherEntry {
  field: string;
  value: unknown;
  at: PathSeg[];
}

function readMatcher(
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
        : !KNOWN_MATCHER_FIELDS.has(entry.field) && !AUTONOMY.has(entry.field)
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

// ---- diagnostics and typed reads ----

type Table = Record<string, unknown>;

/** YAML and JSON may write `null` for an optional field: it counts as not written. */
function absent(v: unknown): v is null | undefined {
  return v === undefined || v === null;
}

function isTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (v instanceof Date) return 'a date';
  switch (typeof v) {
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'number':
    case 'bigint':
      return Number.isInteger(Number(v)) ? 'an integer' : 'a number';
    case 'object':
      return 'a table';
    default:
      return typeof v;
  }
}

function display(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return describe(v);
}

class Checker {
  readonly diagnostics: Diagnostic[] = [];
  failed = false;
  hook: string | undefined;
  private ref: string | undefined;
  command: { written: string; at: readonly PathSeg[] } | undefined;

  constructor(private readonly raw: RawHook) {}

  /** From here on, messages are about the hook called `name`. */
  named(name: string | undefined): void {
    this.hook = name;
    this.ref = undefined;
  }

  /** `hooks: hook "<name>"`, which most messages start with: built only when one is written. */
  get hookRef(): string {
    return (this.ref ??= `hooks: hook ${q(this.hook ?? '')}`);
  }

  error(code: DiagnosticCode, message: string, at: readonly PathSeg[]): void {
    this.failed = true;
    this.push('error', code, message, at);
  }

  warn(code: DiagnosticCode, message: string, at: readonly PathSeg[]): void {
    this.push('warning', code, message, at);
  }

  private push(severity: 'error' | 'warning', code: DiagnosticCode, message: string, at: readonly PathSeg[]): void {
    const raw = this.raw;
    const position = this.position(at);
    this.diagnostics.push(
      makeDiagnostic(severity, code, (raw.messagePrefix ?? '') + message, raw.file, position, {
        source: raw.source,
        hook: this.hook,
      }),
    );
  }

  /** The offending key's position, else the nearest written parent's, else the declaration's. */
  private position(at: readonly PathSeg[]): Position {
    for (let k = at.length; k > 0; k--) {
      const found = this.raw.locate([...this.raw.path, ...at.slice(0, k)]);
      if (found) return found;
    }
    return this.raw.position;
  }

  private typeError(path: readonly PathSeg[], expected: string, got: unknown): void {
    const field = path.map(String).join('.');
    this.error('invalid_field_type', `${this.hookRef} ${field} must be ${expected}, got ${describe(got)}`, path);
  }

  string(table: Table, key: string, base: readonly PathSeg[]): string | undefined {
    const v = table[key];
    if (absent(v)) return undefined;
    if (typeof v === 'string') return v;
    this.typeError([...base, key], 'a string', v);
    return undefined;
  }

  bool(table: Table, key: string, base: readonly PathSeg[]): boolean | undefined {
    const v = table[key];
    if (absent(v)) return undefined;
    if (typeof v === 'boolean') return v;
    this.typeError([...base, key], 'a boolean', v);
    return undefined;
  }

  table(table: Table, key: string, base: readonly PathSeg[]): Table | undefined {
    const v = table[key];
    if (absent(v)) return undefined;
    if (isTable(v)) return v;
    this.typeError([...base, key], 'a table', v);
    return undefined;
  }

  stringList(table: Table, key: string, base: readonly PathSeg[]): string[] | undefined {
    const v = table[key];
    if (absent(v)) return undefined;
    if (!Array.isArray(v)) {
      this.typeError([...base, key], 'a list of strings', v);
      return undefined;
    }
    let ok = true;
    v.forEach((item, i) => {
      if (typeof item !== 'string') {
        this.typeError([...base, key, i], 'a string', item);
        ok = false;
      }
    });
    return ok ? (v as string[]) : undefined;
  }

  stringMap(table: Table, key: string, base: readonly PathSeg[]): Record<string, string> | undefined {
    const v = table[key];
    if (absent(v)) return undefined;
    if (!isTable(v)) {
      this.typeError([...base, key], 'a table of strings', v);
      return undefined;
    }
    let ok = true;
    for (const [k, item] of Object.entries(v)) {
      if (typeof item !== 'string') {
        this.typeError([...base, key, k], 'a string', item);
        ok = false;
      }
    }
    return ok ? { ...(v as Record<string, string>) } : undefined;
  }
}
