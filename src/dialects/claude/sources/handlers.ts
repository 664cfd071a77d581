// The three levels every claude hook source shares (claude.md §2.1): event → matcher groups →
// handlers, checked against the catalog with the codes of §2.5. The input is plain data (JSON or
// YAML front matter) and a Locator, so every file kind goes through the same rules.
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import type { Locator, PathSeg, Position } from '../../../declarations/source-file.js';
import type { ClaudeEventData } from '../catalog-types.js';
import {
  claudeCatalogMeta,
  claudeEvent,
  claudeEventAddedLater,
  claudeEventCaseHint,
  claudeEvents,
  isIfEvent,
} from '../catalog.js';
import { inRelease, ruleHolds, selectedClaudeRelease } from '../releases.js';
import { claudeDiagnostic, type ClaudeDiagnosticCode } from '../codes.js';
import { didYouMean } from '../../../matching/suggest.js';
import { parseRule } from '../rules/if-eval.js';
import { ifRuleProblem, isEvaluatedIfRule } from '../rules/if-rule.js';
import { isMatchAll, matcherForm } from '../rules/match.js';
import type { ClaudeHandlerType, ClaudePluginRef, ClaudeSource } from '../model.js';

export type HookFileKind = 'settings' | 'plugin' | 'skill' | 'command' | 'agent';

export interface HookFileContext {
  file: string;
  source: ClaudeSource;
  /** The §2.2 origin: names are `<origin>:<Event>:<group>.<handler>`. */
  origin: string;
  kind: HookFileKind;
  /** Plugin hooks and plugin skills' hooks. */
  plugin?: ClaudePluginRef;
  locate: Locator;
  /** Where the event map sits in the file (`["hooks"]` in settings). */
  base: readonly PathSeg[];
}

/** One handler as written, with what the loaders need to make a declaration of it. */
export interface RawHandler {
  name: string;
  /** The event key as written. */
  eventKey: string;
  /** The event it is registered for (an agent's Stop is SubagentStop). */
  event: string;
  /** 1-based. */
  group: number;
  index: number;
  /** The group's matcher as written; null when absent. */
  matcher: string | null;
  handler: Record<string, unknown>;
  type: ClaudeHandlerType;
  at: Position;
  /** Where a field of the handler is written (`["headers", "X-Key"]`). */
  fieldAt: (path: readonly PathSeg[]) => Position | undefined;
  /** false when an error means the hook never runs: it becomes an `invalid` declaration (SPEC §7.2). */
  ok: boolean;
  /** The errors that make it so (its own, its group's, its event key's, its plugin's), first one first. */
  errors?: Diagnostic[];
  /**
   * Warnings that mean the hook, though loaded, never fires or fails when it does (a matcher off
   * by case, a missing script): the declaration carries them, and the first one is its `why`.
   */
  notices?: Diagnostic[];
  runnable: boolean;
  unrunnable_why?: string;
  /**
   * Written under an event name at the top level of its file instead of under `hooks`: Claude
   * Code never reads it. Why, as `list --all` shows it (status `skipped`).
   */
  stray?: string;
}

export interface HookMapResult {
  handlers: RawHandler[];
  diagnostics: Diagnostic[];
}

export const HANDLER_TYPES: readonly ClaudeHandlerType[] = ['command', 'http', 'mcp_tool', 'prompt', 'agent'];
const COMMON_FIELDS = ['type', 'if', 'timeout', 'statusMessage', 'once'];
let handlerFields: { byType: Record<ClaudeHandlerType, Set<string>>; all: Set<string> } | undefined;

/** The fields each handler type may have, and every field of some type: built on first use, as the catalog is. */
function handlerFieldSets() {
  if (handlerFields === undefined) {
    const byType = Object.fromEntries(
      HANDLER_TYPES.map((t) => [t, new Set([...COMMON_FIELDS, ...claudeCatalogMeta().handler_types[t].fields])]),
    ) as Record<ClaudeHandlerType, Set<string>>;
    handlerFields = { byType, all: new Set(Object.values(byType).flatMap((s) => [...s])) };
  }
  return handlerFields;
}

type Check = 'string' | 'strings' | 'boolean' | 'string_map' | 'object' | 'shell' | 'block';
const FIELD_CHECKS: Readonly<Record<string, Check>> = {
  if: 'string',
  statusMessage: 'string',
  once: 'boolean',
  command: 'string',
  args: 'strings',
  async: 'boolean',
  asyncRewake: 'boolean',
  shell: 'shell',
  url: 'string',
  headers: 'string_map',
  allowedEnvVars: 'strings',
  server: 'string',
  tool: 'string',
  input: 'object',
  prompt: 'string',
  model: 'string',
  continueOnBlock: 'boolean',
  onFailure: 'block',
};
const CHECK_TEXT: Readonly<Record<Check, string>> = {
  string: 'a string',
  strings: 'a list of strings',
  boolean: 'a boolean',
  string_map: 'an object of strings',
  object: 'an object',
  shell: '"bash" or "powershell"',
  block: '"block"',
};

const q = (s: string): string => JSON.stringify(s);

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function passes(check: Check, v: unknown): boolean {
  switch (check) {
    case 'string':
      return typeof v === 'string';
    case 'block':
      return v === 'block';
    case 'strings':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'boolean':
      return typeof v === 'boolean';
    case 'string_map':
      return isPlainObject(v) && Object.values(v).every((x) => typeof x === 'string');
    case 'object':
      return isPlainObject(v);
    case 'shell':
      return v === 'bash' || v === 'powershell';
  }
}

/** Reads an event map (`{"PreToolUse": [groups...]}`); the caller has checked it is an object. */
export function readEventMap(map: Record<string, unknown>, ctx: HookFileContext): HookMapResult {
  const out: HookMapResult = { handlers: [], diagnostics: [] };
  const diag = (
    sev: 'error' | 'warning',
    code: ClaudeDiagnosticCode,
    message: string,
    path: PathSeg[],
    hook?: string,
  ): Diagnostic => {
    const d = claudeDiagnostic(sev, code, message, ctx.file, ctx.locate([...ctx.base, ...path]), {
      source: ctx.source,
      hook,
    });
    out.diagnostics.push(d);
    return d;
  };

  for (const [eventKey, groups] of Object.entries(map)) {
    const registered = ctx.kind === 'agent' && eventKey === 'Stop' ? 'SubagentStop' : eventKey;
    const event = claudeEvent(registered);
    if (event === undefined) {
      // claude.md §2.5's case-only hint first; else the closest names, as SPEC §7.1 asks of every
      // dialect's unknown-event diagnostic (docs/DESIGN.md, "claude: did-you-mean").
      const hint = claudeEventCaseHint(eventKey);
      // An event of a later release than the selected one (claude.md §9) says which.
      const later = claudeEventAddedLater(registered);
      const d = diag(
        'error',
        'claude_unknown_event',
        later !== undefined
          ? `unknown hook event ${q(eventKey)} (added in Claude Code ${later})`
          : `unknown hook event ${q(eventKey)}${
              hint
                ? `; did you mean ${q(hint)}?`
                : didYouMean(
                    eventKey,
                    claudeEvents().map((e) => e.name),
                  )
            }`,
        [eventKey],
      );
      out.handlers.push(...unknownEventHandlers(eventKey, groups, ctx, d));
      continue;
    }
    if (!Array.isArray(groups)) {
      diag('error', 'claude_invalid_group', `hooks.${eventKey} must be a list of matcher groups`, [eventKey]);
      continue;
    }
    groups.forEach((group, gi) => {
      const gpath: PathSeg[] = [eventKey, gi];
      if (!isPlainObject(group) || !Array.isArray(group.hooks)) {
        diag('error', 'claude_invalid_group', `hooks.${eventKey}[${gi}] must be an object with a "hooks" list`, gpath);
        return;
      }
      for (const key of Object.keys(group)) {
        if (key !== 'matcher' && key !== 'hooks')
          diag('warning', 'claude_unknown_key', `unknown key ${q(key)}`, [...gpath, key]);
      }
      const rawMatcher = group.matcher;
      const groupErrors: Diagnostic[] = [];
      const groupNotices: Diagnostic[] = [];
      let matcher: string | null = null;
      // A matcher belongs to every hook of its group: its diagnostics name them all.
      const groupHooks = (group.hooks as unknown[])
        .map((_, hi) => `${ctx.origin}:${eventKey}:${gi + 1}.${hi + 1}`)
        .join(', ');
      const hooksOfGroup = groupHooks === '' ? undefined : groupHooks;
      if (rawMatcher !== undefined && rawMatcher !== null) {
        if (typeof rawMatcher !== 'string') {
          groupErrors.push(
            diag(
              'error',
              'claude_invalid_field_type',
              `"matcher" must be a string`,
              [...gpath, 'matcher'],
              hooksOfGroup,
            ),
          );
        } else {
          matcher = rawMatcher;
          checkMatcher(matcher, event, (sev, code, msg) => {
            const d = diag(sev, code, msg, [...gpath, 'matcher'], hooksOfGroup);
            if (sev === 'error') groupErrors.push(d);
            else if (NEVER_FIRES.has(code)) groupNotices.push(d);
          });
        }
      }
      (group.hooks as unknown[]).forEach((handler, hi) => {
        const name = `${ctx.origin}:${eventKey}:${gi + 1}.${hi + 1}`;
        const hpath: PathSeg[] = [...gpath, 'hooks', hi];
        const own: Diagnostic[] = [];
        const raw = readHandler(handler, {
          name,
          eventKey,
          event,
          group: gi + 1,
          index: hi + 1,
          matcher,
          at: ctx.locate([...ctx.base, ...hpath]) ?? { line: 1 },
          fieldAt: (path) => ctx.locate([...ctx.base, ...hpath, ...path]),
          ctx,
          diag: (sev, code, msg, field) => {
            const d = diag(sev, code, msg, field === undefined ? hpath : [...hpath, field], name);
            if (sev === 'error') own.push(d);
          },
        });
        if (raw !== undefined) {
          const errors = [...groupErrors, ...own];
          if (errors.length > 0) {
            raw.ok = false;
            raw.errors = errors;
          }
          if (groupNotices.length > 0) raw.notices = [...groupNotices];
          out.handlers.push(raw);
        }
      });
    });
  }
  return out;
}

/**
 * Event names used as top-level keys of a settings file or front matter, beside `hooks` instead
 * of under it (`"PostToolUse": [...]`): Claude Code ignores the key, so its hooks never run. One
 * warning per key, naming its hooks; the hooks stay visible as `skipped` with that warning as why
 * (their own findings are not reported: nothing of them is read).
 */
export function strayEventKeys(data: Record<string, unknown>, ctx: HookFileContext): HookMapResult {
  const out: HookMapResult = { handlers: [], diagnostics: [] };
  const what = ctx.kind === 'settings' ? 'a setting' : 'a front matter key';
  for (const [key, value] of Object.entries(data)) {
    if (key === 'hooks' || claudeEvent(ctx.kind === 'agent' && key === 'Stop' ? 'SubagentStop' : key) === undefined)
      continue;
    const why = `${q(key)} is a hook event, not ${what}: Claude Code ignores it and its hooks never run; did you mean hooks.${key}?`;
    const read = readEventMap({ [key]: value }, { ...ctx, base: [] });
    const handlers = read.handlers.map((h): RawHandler => {
      const { errors: _errors, ...rest } = h;
      return { ...rest, ok: true, stray: why };
    });
    const names = handlers.map((h) => h.name).join(', ');
    out.diagnostics.push(
      claudeDiagnostic('warning', 'claude_event_outside_hooks', why, ctx.file, ctx.locate([key]), {
        source: ctx.source,
        ...(names !== '' ? { hook: names } : {}),
      }),
    );
    out.handlers.push(...handlers);
  }
  return out;
}

/**
 * The handlers written under an event key Claude Code does not know: none runs, and each stays
 * visible as `invalid` with the event's diagnostic (SPEC §7.2). Only handler objects with a known
 * type are kept; anything less has no name worth listing.
 */
function unknownEventHandlers(
  eventKey: string,
  groups: unknown,
  ctx: HookFileContext,
  error: Diagnostic,
): RawHandler[] {
  if (!Array.isArray(groups)) return [];
  const out: RawHandler[] = [];
  groups.forEach((group, gi) => {
    if (!isPlainObject(group) || !Array.isArray(group.hooks)) return;
    (group.hooks as unknown[]).forEach((handler, hi) => {
      if (!isPlainObject(handler) || !(HANDLER_TYPES as readonly unknown[]).includes(handler.type)) return;
      const hpath: PathSeg[] = [...ctx.base, eventKey, gi, 'hooks', hi];
      out.push({
        name: `${ctx.origin}:${eventKey}:${gi + 1}.${hi + 1}`,
        eventKey,
        event: eventKey,
        group: gi + 1,
        index: hi + 1,
        matcher: typeof group.matcher === 'string' ? group.matcher : null,
        handler,
        type: handler.type as ClaudeHandlerType,
        at: ctx.locate(hpath) ?? { line: 1 },
        fieldAt: (path) => ctx.locate([...hpath, ...path]),
        ok: false,
        errors: [error],
        runnable: false,
      });
    });
  });
  return out;
}

type Emit = (sev: 'error' | 'warning', code: ClaudeDiagnosticCode, message: string) => void;

/** Warning codes that mean a loaded hook never fires (or fails each time it does). */
export const NEVER_FIRES: ReadonlySet<string> = new Set(['claude_matcher_case', 'claude_command_not_found']);

/**
 * Names of a matcher that differ from a known value only by case (`bash`, `edit|write`): the
 * comparison is case-sensitive, so the group never matches them. The matcher with each of them
 * corrected; undefined when none.
 */
export function caseCorrectedMatcher(
  matcher: string,
  names: readonly string[],
  known: readonly string[],
): string | undefined {
  const fixes = new Map<string, string>();
  for (const n of names) {
    if (known.includes(n)) continue;
    const hit = known.find((k) => k.toLowerCase() === n.toLowerCase());
    if (hit !== undefined) fixes.set(n, hit);
  }
  if (fixes.size === 0) return undefined;
  return matcher.replace(/[^|,]+/g, (seg) => {
    const fix = fixes.get(seg.trim());
    return fix === undefined ? seg : seg.replace(seg.trim(), fix);
  });
}

/** The matcher rules of §2.5; false when an error means the group never runs. */
function checkMatcher(matcher: string, event: ClaudeEventData, emit: Emit): boolean {
  if (isMatchAll(matcher)) return true;
  if (event.matcher_field === null) {
    emit(
      'warning',
      'claude_matcher_ignored',
      `${event.name} has no matcher; "matcher" is ignored and the hook runs on every ${event.name}`,
    );
    return true;
  }
  const form = matcherForm(matcher, event.narrow_matcher);
  if (form.kind === 'names') {
    const known = event.matcher_values ?? [];
    const corrected = caseCorrectedMatcher(matcher, form.names, known);
    if (corrected !== undefined) {
      const what = event.matcher_field === 'tool_name' ? 'tool names' : `${event.matcher_field} values`;
      emit('warning', 'claude_matcher_case', `${what} are case-sensitive; did you mean ${q(corrected)}?`);
    }
    if (event.matcher_values_closed && event.matcher_values) {
      for (const v of form.names) {
        // A name off by case has its own warning above (one problem, one diagnostic).
        if (!event.matcher_values.includes(v) && !known.some((k) => k.toLowerCase() === v.toLowerCase())) {
          emit(
            'warning',
            'claude_unknown_matcher_value',
            `matcher value ${q(v)} is not a known ${event.matcher_field} of ${event.name} (${event.matcher_values.join(', ')})`,
          );
        }
      }
    }
    return true;
  }
  try {
    new RegExp(matcher);
  } catch (err) {
    emit(
      'error',
      'claude_invalid_matcher',
      `matcher ${q(matcher)} is not a valid regular expression: ${(err as Error).message}`,
    );
    return false;
  }
  if (/^[A-Za-z][A-Za-z0-9_]*\(.*\)$/s.test(matcher)) {
    emit(
      'warning',
      'claude_matcher_is_rule',
      `matcher ${q(matcher)} is read as a regular expression; to filter arguments use "if": ${q(matcher)}`,
    );
  }
  return true;
}

interface HandlerInput {
  name: string;
  eventKey: string;
  event: ClaudeEventData;
  group: number;
  index: number;
  matcher: string | null;
  at: Position;
  fieldAt: RawHandler['fieldAt'];
  ctx: HookFileContext;
  diag: (sev: 'error' | 'warning', code: ClaudeDiagnosticCode, message: string, field?: string) => void;
}

const PLUGIN_VAR = /\$\{?(CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\b/;
const USER_CONFIG = /\$\{user_config\.([^}]*)\}/;
const TOOL_INPUT = /\$\{?TOOL_INPUT\b/;

/** Stop, SubagentStop, TaskCompleted and TeammateIdle, as in Claude Code; and where exit 2 blocks nothing. */
const ON_FAILURE_IGNORED_EVENTS = new Set(['Stop', 'SubagentStop', 'TaskCompleted', 'TeammateIdle']);

/**
 * Where `onFailure: "block"` has no effect (claude.md §5.4): `async hooks`, or the event's name;
 * undefined when it blocks.
 */
export function onFailureIgnoredOn(event: ClaudeEventData, handler: Record<string, unknown>): string | undefined {
  if (handler.async === true || handler.asyncRewake === true) return 'async hooks';
  if (ON_FAILURE_IGNORED_EVENTS.has(event.name) || event.exit2 === 'notice' || event.exit2 === 'ignored')
    return event.name;
  return undefined;
}

/** The release that added a handler field: the type's own, else the common ones' (claude.md §9). */
function handlerFieldSince(t: ClaudeHandlerType, key: string): string | undefined {
  const meta = claudeCatalogMeta();
  return meta.handler_types[t].field_since?.[key] ?? meta.field_since[`common_handler_fields.${key}`];
}

function readHandler(input: unknown, h: HandlerInput): RawHandler | undefined {
  if (!isPlainObject(input)) {
    h.diag(
      'error',
      'claude_invalid_group',
      `hooks.${h.eventKey}[${h.group - 1}].hooks[${h.index - 1}] must be an object`,
    );
    return undefined;
  }
  let handler: Record<string, unknown> = input;
  let ok = true;
  const error = (code: ClaudeDiagnosticCode, message: string, field?: string) => {
    ok = false;
    h.diag('error', code, message, field);
  };
  const warn = (code: ClaudeDiagnosticCode, message: string, field?: string) => h.diag('warning', code, message, field);

  const type = handler.type;
  if (typeof type !== 'string' || !(HANDLER_TYPES as readonly string[]).includes(type)) {
    error(
      'claude_invalid_handler_type',
      'hook type must be one of command, http, mcp_tool, prompt, agent',
      'type' in handler ? 'type' : undefined,
    );
    return undefined;
  }
  const t = type as ClaudeHandlerType;
  // The selected release (claude.md §9): a type it does not have never runs; a field it does not
  // have is ignored, as Claude Code of that release ignores it.
  const release = selectedClaudeRelease();
  const typeSince = claudeCatalogMeta().handler_types[t].since;
  if (!inRelease(typeSince, undefined, release)) {
    error(
      'claude_handler_type_not_in_version',
      `${q(t)} hooks are new in Claude Code ${typeSince}; Claude Code ${release.version} does not run this hook`,
      'type',
    );
  }
  const tooNew = Object.keys(handler).flatMap((key) => {
    const since = handlerFieldSince(t, key);
    return since !== undefined && !inRelease(since, undefined, release) ? [[key, since] as const] : [];
  });
  for (const [key, since] of tooNew) {
    warn(
      'claude_field_not_in_version',
      `${q(key)} is new in Claude Code ${since}; Claude Code ${release.version} ignores it`,
      key,
    );
  }
  if (tooNew.length > 0)
    handler = Object.fromEntries(Object.entries(handler).filter(([k]) => !tooNew.some(([f]) => f === k)));
  if (!h.event.handler_types.includes(t)) {
    error(
      'claude_handler_type_not_allowed',
      `${q(t)} hooks are not supported for ${h.event.name}; use a command-type hook instead`,
      'type',
    );
  }

  // Keys and their types.
  const fields = handlerFieldSets();
  for (const [key, value] of Object.entries(handler)) {
    if (key === 'type') continue;
    if (!fields.byType[t].has(key)) {
      warn(
        'claude_unknown_key',
        fields.all.has(key) ? `${q(key)} is not a field of ${t} hooks` : `unknown key ${q(key)}`,
        key,
      );
      continue;
    }
    if (key === 'timeout') continue;
    const check = FIELD_CHECKS[key];
    if (check !== undefined && value !== null && !passes(check, value)) {
      error('claude_invalid_field_type', `${q(key)} must be ${CHECK_TEXT[check]}`, key);
    }
  }
  for (const field of claudeCatalogMeta().handler_types[t].required) {
    const v = handler[field];
    if (v === undefined || v === null || (field === 'command' && v === '')) {
      error('claude_field_required', `${t} hook requires ${q(field)}`, v === undefined ? undefined : field);
    }
  }

  // onFailure "block" (2.1.295, claude.md §5.4) has no effect where there is nothing to block.
  if (handler.onFailure === 'block') {
    const ignoredOn = onFailureIgnoredOn(h.event, handler);
    if (ignoredOn !== undefined)
      warn('claude_on_failure_ignored', `onFailure "block" is ignored on ${ignoredOn}`, 'onFailure');
  }

  const timeout = handler.timeout;
  if (timeout !== undefined && timeout !== null) {
    if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0) {
      error('claude_invalid_timeout', 'timeout must be a positive number of seconds', 'timeout');
    } else {
      if (timeout > 3600) {
        warn(
          'claude_timeout_looks_like_ms',
          `timeout ${timeout} is over an hour; Claude Code timeouts are seconds, not milliseconds`,
          'timeout',
        );
      }
    }
  }
  if ('once' in handler && h.ctx.kind !== 'skill' && h.ctx.kind !== 'command') {
    warn('claude_once_ignored', '"once" is honoured only in skill front matter; ignored', 'once');
  }

  const rule = handler.if;
  if (typeof rule === 'string') {
    if (!isIfEvent(h.event.name)) {
      error(
        'claude_if_not_tool_event',
        `"if" is evaluated only on PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest and PermissionDenied; on ${h.event.name} this hook never runs`,
        'if',
      );
    } else {
      const parsed = parseRule(rule);
      if (parsed === undefined) {
        warn(
          'claude_invalid_if',
          '"if" must be one permission rule such as "Bash(git *)"; hooks fire lets this hook run',
          'if',
        );
      } else if (!isEvaluatedIfRule(parsed)) {
        warn('claude_if_not_evaluated', `hookctl does not evaluate ${q(rule)}; hooks fire lets this hook run`, 'if');
      } else {
        const problem = ifRuleProblem(parsed);
        if (problem !== undefined)
          error(
            'claude_invalid_if_pattern',
            `"if" pattern ${q(parsed.pattern ?? '')} cannot be matched: ${problem}`,
            'if',
          );
      }
    }
  }

  let runnable = true;
  let unrunnableWhy: string | undefined;
  const notRunnable = (why: string) => {
    if (runnable) unrunnableWhy = why;
    runnable = false;
  };
  if (t === 'command') {
    const command = typeof handler.command === 'string' ? handler.command : '';
    const args = Array.isArray(handler.args)
      ? handler.args.filter((a): a is string => typeof a === 'string')
      : undefined;
    const texts = [command, ...(args ?? [])];
    const execForm = args !== undefined;
    if (execForm && /\s/.test(command)) {
      warn(
        'claude_exec_command_whitespace',
        `with "args", "command" is the executable; ${q(command)} contains white space and will not be found`,
        'command',
      );
    }
    const pluginVar = texts.map((s) => PLUGIN_VAR.exec(s)?.[1]).find((v) => v !== undefined);
    if (pluginVar !== undefined && h.ctx.plugin === undefined) {
      error(
        'claude_plugin_var_outside_plugin',
        `hook command references \${${pluginVar}} but the hook is not associated with a plugin`,
        'command',
      );
    }
    const userConfig = texts.map((s) => USER_CONFIG.exec(s)?.[1]).find((v) => v !== undefined);
    if (userConfig !== undefined) {
      // Refused in shell form from 2.1.207 on; before, accepted and skipped as in exec form (§9).
      if (!execForm && ruleHolds('user_config_shell_form_refused')) {
        error(
          'claude_user_config_shell_form',
          `\${user_config.${userConfig}} is not allowed in shell form; use "args"`,
          'command',
        );
      } else {
        warn(
          'claude_user_config_unavailable',
          'plugin user_config values are not available to hookctl; hooks fire skips this hook',
          execForm ? 'args' : 'command',
        );
        notRunnable('plugin user_config values are not available to hookctl');
      }
    }
    if (!execForm && handler.shell === 'powershell') {
      warn(
        'claude_powershell_not_run',
        'shell "powershell" hooks are not run by hookctl; hooks fire skips this hook',
        'shell',
      );
      notRunnable('shell "powershell" hooks are not run by hookctl');
    }
    if (texts.some((s) => TOOL_INPUT.test(s))) {
      warn(
        'claude_tool_input_env',
        '$TOOL_INPUT is not set by Claude Code; hooks read their input as JSON on stdin',
        'command',
      );
    }
  } else if (t === 'http') {
    if (typeof handler.url === 'string' && !isHttpUrl(handler.url)) {
      error('claude_invalid_url', `url ${q(handler.url)} is not an http or https URL`, 'url');
    }
  } else {
    notRunnable(`${t} hooks run only inside Claude Code`);
  }

  return {
    name: h.name,
    eventKey: h.eventKey,
    event: h.event.name,
    group: h.group,
    index: h.index,
    matcher: h.matcher,
    handler,
    type: t,
    at: h.at,
    fieldAt: h.fieldAt,
    ok,
    runnable,
    ...(unrunnableWhy !== undefined ? { unrunnable_why: unrunnableWhy } : {}),
  };
}

export function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '';
  } catch {
    return false;
  }
}

/** `$NAME` and `${NAME}` references in a header value. */
export function headerEnvRefs(value: string): string[] {
  return [...value.matchAll(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g)].map((m) => m[1] ?? m[2]!);
}

/**
 * The names an http hook may expand in its headers (claude.md §5.5): its allowedEnvVars, capped
 * by the httpHookAllowedEnvVars union when one is set.
 */
export function allowedHeaderVars(handler: Record<string, unknown>, cap: readonly string[] | undefined): Set<string> {
  const own = Array.isArray(handler.allowedEnvVars)
    ? handler.allowedEnvVars.filter((v): v is string => typeof v === 'string')
    : [];
  return new Set(cap === undefined ? own : own.filter((v) => cap.includes(v)));
}

/** claude_header_env_not_allowed for every header variable that will be sent empty. */
export function headerEnvDiagnostics(
  raw: RawHandler,
  file: string,
  source: ClaudeSource,
  cap: readonly string[] | undefined,
): Diagnostic[] {
  const headers = raw.handler.headers;
  if (raw.type !== 'http' || !isPlainObject(headers)) return [];
  const allowed = allowedHeaderVars(raw.handler, cap);
  const out: Diagnostic[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (typeof value !== 'string') continue;
    for (const ref of headerEnvRefs(value)) {
      if (allowed.has(ref)) continue;
      out.push(
        claudeDiagnostic(
          'warning',
          'claude_header_env_not_allowed',
          `header ${q(key)} uses $${ref}, which is not an allowed variable; it is sent empty`,
          file,
          raw.fieldAt(['headers', key]) ?? raw.at,
          { source, hook: raw.name },
        ),
      );
    }
  }
  return out;
}

/**
 * allowedHttpHookUrls (claude.md §2.4): the whole URL against each pattern, `*` any run of
 * characters, the host case-insensitive and a trailing `.` of the host ignored.
 */
export function urlAllowed(url: string, patterns: readonly string[]): boolean {
  const target = normaliseUrlHost(url);
  return patterns.some((p) => {
    const re = new RegExp(
      `^${normaliseUrlHost(p)
        .split('*')
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    return re.test(target);
  });
}

/** Lower-cases `scheme://host[:port]` and drops a trailing dot of the host; the rest stays. */
function normaliseUrlHost(url: string): string {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/s.exec(url);
  if (!m) return url;
  const [, scheme, authority, rest] = m;
  const at = authority!.lastIndexOf('@');
  const userinfo = at === -1 ? '' : authority!.slice(0, at + 1);
  let hostPort = authority!.slice(at + 1).toLowerCase();
  const port = /(:[0-9*]*)$/.exec(hostPort)?.[1] ?? '';
  let host = hostPort.slice(0, hostPort.length - port.length);
  if (host.endsWith('.')) host = host.slice(0, -1);
  hostPort = host + port;
  return scheme!.toLowerCase() + userinfo + hostPort + rest;
}

/** What `list` shows as the label (claude.md §7): the command, url, server/tool or first prompt line. */
export function handlerLabel(type: ClaudeHandlerType, handler: Record<string, unknown>): string {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  let label: string;
  switch (type) {
    case 'command': {
      const args = Array.isArray(handler.args) ? handler.args.filter((a) => typeof a === 'string') : [];
      label = [str(handler.command), ...args].join(' ');
      break;
    }
    case 'http':
      label = str(handler.url);
      break;
    case 'mcp_tool':
      label = `${str(handler.server)}/${str(handler.tool)}`;
      break;
    default:
      label = str(handler.prompt).split('\n')[0] ?? '';
  }
  return label.length > 80 ? `${label.slice(0, 79)}…` : label;
}

/** §2.3 identity: event, group matcher (absent, "" and "*" alike) and the handler as canonical JSON. */
export function handlerIdentity(raw: Pick<RawHandler, 'event' | 'matcher' | 'handler'>): string {
  return JSON.stringify([raw.event, isMatchAll(raw.matcher) ? '' : raw.matcher, canonical(raw.handler)]);
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}
