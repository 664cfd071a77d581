// The strict reading of one hooks document (codex.md §2.1, §2.2): a hooks.json, or the [hooks]
// table of a config.toml or requirements.toml, or a plugin manifest's inline hooks object. It
// walks events (in catalog order), groups and handlers, collecting every §2.2 diagnostic, and
// says whether Codex rejects the whole file. Pure: values and a locator in, data out.
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import type { Locator, PathSeg, Position } from '../../../declarations/source-file.js';
import { codexEvent, codexEventNames } from '../catalog.js';
import type { CodexEventData, CodexEventName } from '../catalog-types.js';
import type { CodexDiagnosticCode } from '../codes.js';
import type { CodexFileKind, CodexHandlerType, CodexSource } from '../model.js';
import { TomlFloat } from './hash.js';
import { compileCodexMatcher } from './matcher.js';
import { codexHookName, q } from './names.js';
import { effectiveTimeout, wholeSeconds } from './timeout.js';

export type SharedCode = 'json_parse_error' | 'toml_parse_error' | 'file_unreadable' | 'path_escapes_root';

export function codexDiagnostic(
  severity: Diagnostic['severity'],
  code: CodexDiagnosticCode | SharedCode,
  message: string,
  file: string,
  at: Position,
  extra: { source?: string; hook?: string } = {},
): Diagnostic {
  const d: Diagnostic = { severity, code, message, file, line: at.line };
  if (at.column !== undefined) d.column = at.column;
  if (extra.source !== undefined) d.source = extra.source;
  if (extra.hook !== undefined) d.hook = extra.hook;
  return d;
}

export type Table = Record<string, unknown>;

export function isTable(v: unknown): v is Table {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof Date) &&
    !(v instanceof TomlFloat) &&
    !isTomlDate(v)
  );
}

function isTomlDate(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { toISOString?: unknown }).toISOString === 'function';
}

/** One handler as written, with where it is and what is wrong with it. */
export interface RawCodexHandler {
  event: CodexEventName;
  eventData: CodexEventData;
  groupIndex: number;
  handlerIndex: number;
  groupMatcher: string | null;
  handler: Table;
  type: CodexHandlerType | null;
  name: string;
  at: Position;
  /** Errors of this handler (or its group): Codex skips it. */
  errors: Diagnostic[];
  /** Effective values (§2.1). */
  timeout_s: number;
  asyncWritten: boolean;
  statusMessage: string | null;
  contextLimit: number | bigint | null;
}

export interface CheckedDocument {
  handlers: RawCodexHandler[];
  diagnostics: Diagnostic[];
  /** Why Codex rejects the whole file (the first rejecting diagnostic); undefined: it loads. */
  rejected?: Diagnostic;
  /** At least one handler (Codex warns of both representations only when both are non-empty). */
  declaresHooks: boolean;
}

export interface CheckInput {
  /** The value under `hooks` (JSON) or the [hooks] table (TOML). */
  hooks: unknown;
  /** The path of that value in the document (`['hooks']`, or [] for a bare inline object). */
  base: PathSeg[];
  locate: Locator;
  file: string;
  fileKind: CodexFileKind;
  origin: string;
  source: CodexSource;
  /** Non-event keys the table may hold (TOML: `state`; requirements: `managed_dir`, …). */
  ownKeys?: readonly string[];
  /** Rejections are reported as Codex's config loading failure (config.toml, requirements.toml). */
  loadFailure: boolean;
  /** TOML values: integers are bigint, a number is a float. */
  toml?: boolean;
  /** Earlier rejections found by the caller (root keys, duplicates). */
  rejected?: Diagnostic;
}

const COMMAND_KEYS = new Set([
  'type',
  'command',
  'commandWindows',
  'command_windows',
  'timeout',
  'async',
  'statusMessage',
  'additionalContextLimit',
]);
const MCP_KEYS = new Set(['type', 'server', 'tool', 'input', 'timeout', 'statusMessage']);
const GROUP_KEYS = new Set(['matcher', 'hooks']);
const TYPES: readonly CodexHandlerType[] = ['command', 'mcp_tool', 'prompt', 'agent'];

/** `hooks.PreToolUse[0].hooks[1].timeout`. */
export function pathText(path: readonly PathSeg[]): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  return out;
}

export function positionOf(locate: Locator, path: readonly PathSeg[], fallback: Position = { line: 1 }): Position {
  for (let k = path.length; k > 0; k--) {
    const at = locate(path.slice(0, k));
    if (at) return at;
  }
  return fallback;
}

/** The rejection message of a file kind (§2.2). */
export function rejectionMessage(loadFailure: boolean, why: string): string {
  return loadFailure ? `Codex cannot load this file: ${why}` : `Codex ignores every hook in this file: ${why}`;
}

export function checkHooksDocument(input: CheckInput): CheckedDocument {
  const { locate, file, source } = input;
  const diagnostics: Diagnostic[] = [];
  const handlers: RawCodexHandler[] = [];
  let rejected = input.rejected;
  const at = (path: readonly PathSeg[]) => positionOf(locate, path);

  /** A type error: the whole file is rejected (a config.toml: Codex does not start). */
  const reject = (code: CodexDiagnosticCode, message: string, path: readonly PathSeg[], hook?: string) => {
    const d = input.loadFailure
      ? codexDiagnostic('error', 'codex_file_rejected', rejectionMessage(true, message), file, at(path), {
          source,
          ...(hook !== undefined ? { hook } : {}),
        })
      : codexDiagnostic(
          'error',
          code,
          code === 'codex_file_rejected' ? rejectionMessage(false, message) : message,
          file,
          at(path),
          { source, ...(hook !== undefined ? { hook } : {}) },
        );
    diagnostics.push(d);
    rejected ??= d;
    return d;
  };
  const typeError = (path: readonly PathSeg[], type: string, hook?: string) =>
    reject('codex_file_rejected', `${pathText(path)} must be ${type}`, path, hook);
  const warn = (code: CodexDiagnosticCode, message: string, path: readonly PathSeg[], hook?: string) => {
    diagnostics.push(
      codexDiagnostic('warning', code, message, file, at(path), { source, ...(hook !== undefined ? { hook } : {}) }),
    );
  };

  const hooks = input.hooks;
  if (hooks === undefined || hooks === null) return { handlers, diagnostics, ...opt(rejected), declaresHooks: false };
  if (!isTable(hooks)) {
    typeError(input.base, 'a table of hook events');
    return { handlers, diagnostics, ...opt(rejected), declaresHooks: false };
  }
  const own = new Set(input.ownKeys ?? []);
  const eventKeys = Object.keys(hooks).filter((k) => !own.has(k));
  for (const key of eventKeys) {
    if (codexEvent(key) !== undefined) continue;
    const hint = closeEvent(key);
    diagnostics.push(
      codexDiagnostic(
        'error',
        'codex_unknown_event',
        `unknown hook event ${q(key)}${hint !== undefined ? `; did you mean ${q(hint)}?` : ''}`,
        file,
        at([...input.base, key]),
        { source },
      ),
    );
  }

  // Events in catalog order, whatever order the file writes them in (§1).
  for (const event of codexEventNames()) {
    if (!Object.hasOwn(hooks, event) || own.has(event)) continue;
    const eventData = codexEvent(event)!;
    const groups = hooks[event];
    const ePath = [...input.base, event];
    if (!Array.isArray(groups)) {
      reject('codex_invalid_group', `hooks.${event} must be a list of matcher groups`, ePath);
      continue;
    }
    groups.forEach((group: unknown, gi) => {
      const gPath = [...ePath, gi];
      const firstName = codexHookName(input.origin, event, gi, 0);
      if (!isTable(group) || !Array.isArray(group.hooks)) {
        reject('codex_invalid_group', `hooks.${event}[${gi}] must be a table with a "hooks" list`, gPath, firstName);
        return;
      }
      for (const k of Object.keys(group))
        if (!GROUP_KEYS.has(k))
          warn('codex_unknown_key', `unknown key ${q(k)}; Codex ignores it`, [...gPath, k], firstName);
      let matcher: string | null = null;
      const groupErrors: Diagnostic[] = [];
      if (group.matcher !== undefined && group.matcher !== null) {
        if (typeof group.matcher !== 'string') typeError([...gPath, 'matcher'], 'a string', firstName);
        else {
          matcher = group.matcher;
          if (eventData.matcher_field === null) {
            warn(
              'codex_matcher_ignored',
              `${event} has no matcher; "matcher" is ignored and the hook runs on every ${event}`,
              [...gPath, 'matcher'],
              firstName,
            );
          } else {
            const compiled = compileCodexMatcher(matcher);
            if (!compiled.ok) {
              const d = codexDiagnostic(
                'error',
                'codex_invalid_matcher',
                `matcher ${q(matcher)} is not a valid regular expression: ${compiled.why}; Codex skips this group`,
                file,
                at([...gPath, 'matcher']),
                { source, hook: firstName },
              );
              diagnostics.push(d);
              groupErrors.push(d);
            }
          }
        }
      }
      (group.hooks as unknown[]).forEach((h, hi) => {
        const hPath = [...gPath, 'hooks', hi];
        const name = codexHookName(input.origin, event, gi, hi);
        if (!isTable(h)) {
          typeError(hPath, 'a table', name);
          return;
        }
        handlers.push(checkHandler(h, hPath, name, eventData, matcher, groupErrors));
      });
    });
  }

  function checkHandler(
    h: Table,
    hPath: PathSeg[],
    name: string,
    eventData: CodexEventData,
    matcher: string | null,
    groupErrors: Diagnostic[],
  ): RawCodexHandler {
    const event = eventData.name as CodexEventName;
    const errors: Diagnostic[] = [...groupErrors];
    const skip = (code: CodexDiagnosticCode, message: string, path: PathSeg[]) => {
      const d = codexDiagnostic('error', code, message, file, at(path), { source, hook: name });
      diagnostics.push(d);
      errors.push(d);
    };
    const type =
      typeof h.type === 'string' && (TYPES as string[]).includes(h.type) ? (h.type as CodexHandlerType) : null;
    if (type === null) {
      reject(
        'codex_invalid_handler_type',
        'hook type must be one of command, mcp_tool, prompt, agent',
        h.type === undefined ? hPath : [...hPath, 'type'],
        name,
      );
    }
    const known = type === 'command' ? COMMAND_KEYS : type === 'mcp_tool' ? MCP_KEYS : undefined;
    if (known !== undefined)
      for (const k of Object.keys(h))
        if (!known.has(k)) warn('codex_unknown_key', `unknown key ${q(k)}; Codex ignores it`, [...hPath, k], name);

    // timeout, every type.
    let written: number | undefined;
    if (h.timeout !== undefined) {
      written = wholeSeconds(h.timeout, input.toml === true);
      if (written === undefined)
        reject('codex_invalid_timeout', 'timeout must be a whole number of seconds', [...hPath, 'timeout'], name);
    }
    const timeout = effectiveTimeout(eventData, written);
    if (timeout.zero) warn('codex_timeout_zero', 'timeout 0 is raised to 1s', [...hPath, 'timeout'], name);
    if (timeout.clamped)
      warn(
        'codex_timeout_clamped',
        `${event} hook timeout ${written}s is above the ${eventData.max_timeout_s}s maximum; Codex uses ${eventData.max_timeout_s}s`,
        [...hPath, 'timeout'],
        name,
      );

    let statusMessage: string | null = null;
    if (h.statusMessage !== undefined && h.statusMessage !== null && (type === 'command' || type === 'mcp_tool')) {
      if (typeof h.statusMessage !== 'string') typeError([...hPath, 'statusMessage'], 'a string', name);
      else statusMessage = h.statusMessage;
    }
    let asyncWritten = false;
    let contextLimit: number | bigint | null = null;

    if (type === 'command') {
      if (h.command === undefined) reject('codex_field_required', 'command hook requires "command"', hPath, name);
      else if (typeof h.command !== 'string') typeError([...hPath, 'command'], 'a string', name);
      else if (h.command.trim() === '')
        skip('codex_empty_command', 'hook command is empty; Codex skips it', [...hPath, 'command']);
      if (h.commandWindows !== undefined && h.command_windows !== undefined)
        reject('codex_file_rejected', 'duplicate field "commandWindows"', [...hPath, 'command_windows'], name);
      for (const k of ['commandWindows', 'command_windows'])
        if (h[k] !== undefined && h[k] !== null && typeof h[k] !== 'string') typeError([...hPath, k], 'a string', name);
      if (h.async !== undefined && h.async !== null) {
        if (typeof h.async !== 'boolean') typeError([...hPath, 'async'], 'a boolean', name);
        else asyncWritten = h.async;
      }
      if (asyncWritten && !eventData.async)
        warn('codex_async_forced_sync', `async ${event} hooks run synchronously`, [...hPath, 'async'], name);
      const limit = h.additionalContextLimit;
      if (limit !== undefined && limit !== null) {
        if (wholeSeconds(limit, input.toml === true) === undefined)
          typeError([...hPath, 'additionalContextLimit'], 'a whole number ≥ 0', name);
        else {
          contextLimit = typeof limit === 'bigint' ? limit : (limit as number);
          if (!eventData.context_limit)
            warn(
              'codex_context_limit_ignored',
              `additionalContextLimit has no effect on ${event}`,
              [...hPath, 'additionalContextLimit'],
              name,
            );
        }
      }
    } else if (type === 'mcp_tool') {
      for (const field of ['server', 'tool'] as const) {
        const v = h[field];
        if (v === undefined) reject('codex_field_required', `mcp_tool hook requires ${q(field)}`, hPath, name);
        else if (typeof v !== 'string') typeError([...hPath, field], 'a string', name);
        else if (v.trim() === '') skip('codex_field_required', `mcp_tool hook requires ${q(field)}`, [...hPath, field]);
      }
      if (h.input !== undefined) {
        if (!isTable(h.input)) typeError([...hPath, 'input'], 'a table', name);
        else if (holdsNull(h.input))
          reject(
            'codex_mcp_input_not_toml',
            'mcp_tool input must be representable as TOML (no null values)',
            [...hPath, 'input'],
            name,
          );
      }
      if (!eventData.mcp_tool)
        skip('codex_mcp_not_supported', `mcp_tool hooks are not supported on ${event}; Codex skips this hook`, [
          ...hPath,
          'type',
        ]);
    } else if (type !== null) {
      skip('codex_handler_unsupported', `${type} hooks are not supported by Codex yet; Codex skips this hook`, [
        ...hPath,
        'type',
      ]);
    }

    return {
      event,
      eventData,
      groupIndex: hPath[hPath.length - 3] as number,
      handlerIndex: hPath[hPath.length - 1] as number,
      groupMatcher: matcher,
      handler: h,
      type,
      name,
      at: at(hPath),
      errors,
      timeout_s: timeout.seconds,
      asyncWritten,
      statusMessage,
      contextLimit,
    };
  }

  return { handlers, diagnostics, ...opt(rejected), declaresHooks: handlers.length > 0 };
}

function opt(rejected: Diagnostic | undefined): { rejected?: Diagnostic } {
  return rejected === undefined ? {} : { rejected };
}

function holdsNull(v: unknown): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.some(holdsNull);
  if (isTable(v)) return Object.values(v).some(holdsNull);
  return false;
}

/** A catalog event close to a misspelt one: same letters ignoring case, or 2 edits away. */
export function closeEvent(key: string): string | undefined {
  const lower = key.toLowerCase().replace(/[_-]/g, '');
  const names = codexEventNames();
  for (const e of names) if (e.toLowerCase() === lower) return e;
  let best: string | undefined;
  let bestD = 3;
  for (const e of names) {
    const d = distance(key.toLowerCase(), e.toLowerCase());
    if (d < bestD) [best, bestD] = [e, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}
