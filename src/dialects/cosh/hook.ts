// One cosh hook definition, as both config.toml (`[[hooks.<Event>]]`) and cosh-extension.json
// (`hooks.<Event>[].hooks[]`) write it: the field rules of SPEC §4.2–4.4 in one place.
import { didYouMean } from '../../matching/suggest.js';
import { coshEvent, coshEvents } from './events.js';
import { coshMatcherError } from './matcher.js';
import type { Diagnostic, Severity } from '../../declarations/diagnostics.js';
import type { CoshSource } from './model.js';
import type { CoshDiagnosticCode } from './codes.js';

/** cosh timeouts are milliseconds; absent means this (seed: "Hook timeout (default 5000ms)"). */
const COSH_DEFAULT_TIMEOUT_MS = 5000;

/** A declared value and, when already known, where its key sits. */
export interface CoshField {
  value: unknown;
  line?: number;
  column?: number;
}

export interface KeyPosition {
  line: number;
  column?: number;
}

/** A hook object as read from a file, before validation. */
export interface RawCoshHook {
  source: CoshSource;
  file: string;
  event: string;
  /** Human path for messages, e.g. `hooks.PreToolUse[0]`. */
  path: string;
  /** Where the hook object starts. */
  line: number;
  column?: number;
  /** Declared keys in file order. */
  fields: ReadonlyMap<string, CoshField>;
  /**
   * Where a key without a known line sits; called only for a diagnostic, so a costly locator
   * (TOML) runs only for files that have something to report.
   */
  keyPosition?: (key: string) => KeyPosition | undefined;
  /** Keys this kind of hook object knows; others warn. */
  knownKeys: ReadonlySet<string>;
  /** Extension hooks: the group's matcher, already validated (undefined = every tool). */
  groupMatcher?: string;
}

/** A hook that passed validation. `name` null = nameless, skipped (seed: "Hook definitions without a name field are skipped"). */
export interface CoshHookSpec {
  event: string;
  name: string | null;
  command: string;
  timeout_ms: number;
  /** Non-empty regex on tool_name, kept only on tool events. */
  matcher?: string;
  env: Record<string, string>;
  description?: string;
  file: string;
  line: number;
  /** The hook has errors: kept to be shown with them (SPEC §7.2), never run. */
  invalid?: Diagnostic[];
}

export interface HookCheck {
  /** With `invalid` set when the hook has errors: it is shown, never run. */
  spec?: CoshHookSpec;
  diagnostics: Diagnostic[];
}

export interface At {
  file: string;
  line: number;
  column?: number;
  source: CoshSource;
  hook?: string;
}

export function diagnostic(severity: Severity, code: CoshDiagnosticCode, message: string, at: At): Diagnostic {
  const d: Diagnostic = { severity, code, message, file: at.file, line: at.line, source: at.source };
  if (at.column !== undefined) d.column = at.column;
  if (at.hook !== undefined) d.hook = at.hook;
  return d;
}

export function isCoshEventName(name: string): boolean {
  return coshEvent(name) !== undefined;
}

export function unknownEventMessage(name: string): string {
  const names = coshEvents().map((e) => e.name);
  const hint = didYouMean(name, names) || `; expected one of ${names.join(', ')}`;
  return `unknown cosh event "${name}"${hint}`;
}

/** A type name for "must be X, got Y" messages. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  return typeof value === 'bigint' ? 'number' : typeof value;
}

/**
 * A matcher (regex on tool_name, SPEC §4.4). Empty = every tool. On an event without tools it is
 * ignored with a warning; an invalid regex is an error. As in cosh-core's hook planner (inherited
 * from gemini-cli), the matcher is trimmed and `*` is the match-all wildcard, not a regex.
 */
export function checkCoshMatcher(
  value: unknown,
  event: string,
  label: string,
  /** Where to report; called only when there is something to report. */
  at: () => At,
): { ok: boolean; matcher?: string; diagnostics: Diagnostic[] } {
  if (typeof value !== 'string') {
    return {
      ok: false,
      diagnostics: [
        diagnostic('error', 'invalid_field_type', `${label} must be a string, got ${typeName(value)}`, at()),
      ],
    };
  }
  const trimmed = value.trim();
  const pattern = trimmed === '*' ? '' : trimmed;
  const syntax = matcherError(pattern);
  if (syntax !== undefined) {
    return {
      ok: false,
      diagnostics: [
        diagnostic(
          'error',
          'invalid_matcher_pattern',
          `${label} "${value}" is not a valid regular expression: ${syntax}`,
          at(),
        ),
      ],
    };
  }
  if (coshEvent(event)?.tool_matcher !== true) {
    const diagnostics =
      pattern === ''
        ? []
        : [
            diagnostic(
              'warning',
              'matcher_ignored',
              `${label} is ignored on event "${event}": only PreToolUse, PostToolUse and PostToolUseFailure match on tool_name`,
              at(),
            ),
          ];
    return { ok: true, diagnostics };
  }
  return pattern === '' ? { ok: true, diagnostics: [] } : { ok: true, matcher: pattern, diagnostics: [] };
}

/** Many hooks share one matcher: check each distinct pattern once. */
const matcherErrors = new Map<string, string | undefined>();
function matcherError(pattern: string): string | undefined {
  if (!matcherErrors.has(pattern)) matcherErrors.set(pattern, coshMatcherError(pattern));
  return matcherErrors.get(pattern);
}

export function validateCoshHook(raw: RawCoshHook): HookCheck {
  const diagnostics: Diagnostic[] = [];
  let failed = false;
  const hookAt = (key?: string): At => {
    const f = key === undefined ? undefined : raw.fields.get(key);
    const pos: KeyPosition | undefined =
      key === undefined || f === undefined
        ? undefined
        : f.line !== undefined
          ? { line: f.line, column: f.column }
          : raw.keyPosition?.(key);
    const at: At = { file: raw.file, line: pos?.line ?? raw.line, source: raw.source };
    const column = pos ? pos.column : raw.column;
    if (column !== undefined) at.column = column;
    if (name !== undefined) at.hook = name;
    return at;
  };
  const error = (code: CoshDiagnosticCode, message: string, key?: string) => {
    failed = true;
    diagnostics.push(diagnostic('error', code, message, hookAt(key)));
  };

  // name first, so every later diagnostic can name its hook.
  let name: string | undefined;
  const nameField = raw.fields.get('name');
  const nameValue = nameField?.value;
  if (nameField !== undefined && typeof nameValue !== 'string') {
    error('invalid_field_type', `${raw.path}.name must be a string, got ${typeName(nameValue)}`, 'name');
  } else if (typeof nameValue === 'string' && nameValue.trim() !== '') {
    name = nameValue.trim();
  }

  for (const key of raw.fields.keys()) {
    if (!raw.knownKeys.has(key)) {
      diagnostics.push(
        diagnostic('warning', 'unknown_key', `unknown key "${key}" in ${raw.path} is ignored`, hookAt(key)),
      );
    }
  }

  const type = raw.fields.get('type');
  if (type !== undefined && raw.knownKeys.has('type') && type.value !== 'command') {
    const shown = typeof type.value === 'string' ? `"${type.value}"` : typeName(type.value);
    error('invalid_hook_type', `${raw.path}.type ${shown} is not supported: cosh hooks are of type "command"`, 'type');
  }

  let command = '';
  const commandField = raw.fields.get('command');
  if (commandField === undefined) error('command_required', `${raw.path}.command is required`);
  else if (typeof commandField.value !== 'string') {
    error('invalid_field_type', `${raw.path}.command must be a string, got ${typeName(commandField.value)}`, 'command');
  } else if (commandField.value.trim() === '') error('command_required', `${raw.path}.command is empty`, 'command');
  else command = commandField.value;

  let timeoutMs = COSH_DEFAULT_TIMEOUT_MS;
  const timeoutField = raw.fields.get('timeout');
  if (timeoutField !== undefined) {
    const v = timeoutField.value;
    const n = typeof v === 'bigint' ? Number(v) : v;
    if (typeof n === 'number' && Number.isSafeInteger(n) && n > 0) timeoutMs = n;
    else {
      // A one-line rendering whatever the value is (a table has no string conversion).
      const shown =
        typeof v === 'string' ? JSON.stringify(v) : typeof v === 'object' && v !== null ? typeName(v) : String(v);
      error(
        'invalid_timeout',
        `${raw.path}.timeout must be a positive integer of milliseconds, got ${shown}`,
        'timeout',
      );
    }
  }

  let matcher = raw.groupMatcher;
  const matcherField = raw.fields.get('matcher');
  if (matcherField !== undefined && raw.knownKeys.has('matcher')) {
    const m = checkCoshMatcher(matcherField.value, raw.event, `${raw.path}.matcher`, () => hookAt('matcher'));
    diagnostics.push(...m.diagnostics);
    if (!m.ok) failed = true;
    matcher = m.matcher;
  }

  const env: Record<string, string> = {};
  const envField = raw.fields.get('env');
  if (envField !== undefined) {
    const v = envField.value;
    if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Date) {
      error('invalid_field_type', `${raw.path}.env must be a table of strings, got ${typeName(v)}`, 'env');
    } else {
      for (const [k, value] of Object.entries(v)) {
        if (k === '' || k.includes('=') || k.includes('\0'))
          error('invalid_env_name', `${raw.path}.env name "${k}" is not a valid variable name`, 'env');
        else if (typeof value !== 'string')
          error('invalid_field_type', `${raw.path}.env.${k} must be a string, got ${typeName(value)}`, 'env');
        else env[k] = value;
      }
    }
  }

  let description: string | undefined;
  const descriptionField = raw.fields.get('description');
  if (descriptionField !== undefined && raw.knownKeys.has('description')) {
    if (typeof descriptionField.value === 'string') description = descriptionField.value;
    else
      error(
        'invalid_field_type',
        `${raw.path}.description must be a string, got ${typeName(descriptionField.value)}`,
        'description',
      );
  }

  if (name === undefined) {
    diagnostics.push(
      diagnostic('warning', 'nameless_hook', `${raw.path} has no name: the hook is skipped`, hookAt('name')),
    );
  }
  if (failed) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const shown: CoshHookSpec = {
      event: raw.event,
      name: name ?? null,
      command,
      timeout_ms: timeoutMs,
      env: {},
      file: raw.file,
      line: raw.line,
      invalid: errors,
    };
    return { spec: shown, diagnostics };
  }
  const spec: CoshHookSpec = {
    event: raw.event,
    name: name ?? null,
    command,
    timeout_ms: timeoutMs,
    env,
    file: raw.file,
    line: raw.line,
  };
  if (matcher !== undefined) spec.matcher = matcher;
  if (description !== undefined) spec.description = description;
  return { spec, diagnostics };
}
