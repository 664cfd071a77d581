// One raw compozy hook declaration → a validated Declaration, or diagnostics (SPEC §2.1, §2.2).
// The rules live next to this file, one file per part of the SPEC:
//   sources.ts   §2.1/§2.4  which keys each source may write
//   fields.ts    §2.1       name, event, mode, priority, timeout
//   executor.ts  §2.1/§2.4  executor, command, args, env, secret_env, extension templates
//   matcher.ts   §2.2       matcher fields, autonomy, retired keys, patterns
//   ordering.ts  §2.3       dispatch order and default priorities
//   secrets.ts   §2.1/§6.1  secret hygiene of env maps
//   checker.ts              diagnostics with the exact texts SPEC quotes, typed reads
// The loaders (../sources/) only find declarations and say where each key is written.
//
// A declaration with any error yields no Declaration; one with only warnings still yields.
// Checking never stops at the first problem: every problem of a declaration is reported.
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import type { Declaration, DeclarationStatus } from '../../../declarations/model.js';
import type { CompozySkillSource, CompozySource } from '../model.js';
import type { Locator, PathSeg, Position } from '../../../declarations/source-file.js';
import { Checker, describe, isTable, q } from './checker.js';
import { readExecutor } from './executor.js';
import { readEvent, readMode, readName, readPriority, readTimeout } from './fields.js';
import { readMatcher } from './matcher.js';
import { SOURCE_RULES } from './sources.js';

/** A declaration as a loader found it: parsed data plus where it came from. */
export interface RawHook {
  source: CompozySource;
  skillSource?: CompozySkillSource;
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

/**
 * What a declaration with errors still says about itself (SPEC §7.2): name, event, mode and
 * where it is, read as far as they can be, with status `invalid` and its errors. Never run.
 */
export function invalidDeclaration(raw: RawHook, errors: Diagnostic[]): Declaration {
  const value: Record<string, unknown> = isTable(raw.value) ? raw.value : {};
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const declaration: Declaration = {
    dialect: 'compozy',
    name: rawHookName(value) ?? raw.generatedName ?? null,
    event: text(value.event),
    source: raw.source,
    mode: value.mode === 'async' ? 'async' : 'sync',
    required: value.required === true,
    priority: typeof value.priority === 'number' ? value.priority : null,
    timeout_ms: 0,
    enabled: value.enabled !== false,
    metadata: {},
    matcher: {},
    executor_kind: 'subprocess',
    command: text(value.command),
    args: [],
    env: {},
    secret_env: {},
    cwd: raw.cwd,
    location:
      raw.position.column !== undefined
        ? { file: raw.file, line: raw.position.line, column: raw.position.column }
        : { file: raw.file, line: raw.position.line },
    status: 'invalid',
    why: errors[0]?.message ?? 'invalid declaration',
    diagnostics: errors,
  };
  if (raw.skillSource !== undefined) declaration.skill_source = raw.skillSource;
  if (raw.extension) declaration.extension = raw.extension.name;
  return declaration;
}
