// A checked handler becomes a shared Declaration (claude.md §2, §7 `hooks list`): its §2.2 name,
// effective timeout, mode, label, and the ClaudeHandlerInfo dispatch reads in `extra`.
import type { Declaration, DeclarationStatus } from '../../../declarations/model.js';
import { claudeEvent, defaultTimeoutS } from '../catalog.js';
import { handlerLabel, type HookFileKind, type RawHandler } from './handlers.js';
import type { ClaudeHandlerInfo, ClaudePluginRef, ClaudeSource } from '../model.js';

/** Declaration.extra of a claude declaration, with what this half adds. */
export interface ClaudeExtra extends ClaudeHandlerInfo {
  /** The kind of file the handler is written in. */
  file_kind: HookFileKind;
}

export interface HandlerOrigin {
  source: ClaudeSource;
  origin: string;
  file: string;
  kind: HookFileKind;
  plugin?: ClaudePluginRef;
  /** Skill and command hooks: the skill's or command's name (plugin ones `<plugin>:<name>`) and its scope. */
  skill?: string;
  skillSource?: 'project' | 'user' | 'plugin';
  agent?: string;
}

/** SessionEnd hooks without their own timeout: the shared 1.5 s budget (claude.md §5.7). */
export const SESSION_END_DEFAULT_S = 1.5;

export function effectiveTimeoutS(raw: Pick<RawHandler, 'event' | 'type' | 'handler'>): number {
  const own = raw.handler.timeout;
  if (typeof own === 'number' && own > 0) return own;
  if (raw.event === 'SessionEnd') return SESSION_END_DEFAULT_S;
  return defaultTimeoutS(claudeEvent(raw.event), raw.type);
}

export function makeDeclaration(
  raw: RawHandler,
  from: HandlerOrigin,
  workspace: string,
  status: DeclarationStatus,
  why: string | undefined,
): Declaration {
  const h = raw.handler;
  const bool = (v: unknown) => v === true;
  const isCommand = raw.type === 'command';
  const asyncRewake = isCommand && bool(h.asyncRewake);
  const extra: ClaudeExtra = {
    origin: from.origin,
    handler: h,
    handler_type: raw.type,
    group_matcher: raw.matcher,
    if: typeof h.if === 'string' ? h.if : null,
    once: (from.kind === 'skill' || from.kind === 'command') && bool(h.once),
    async: isCommand && (bool(h.async) || asyncRewake),
    async_rewake: asyncRewake,
    timeout_s: typeof h.timeout === 'number' ? h.timeout : null,
    runnable: raw.runnable,
    label: handlerLabel(raw.type, h),
    file_kind: from.kind,
  };
  if (raw.unrunnable_why !== undefined) extra.unrunnable_why = raw.unrunnable_why;
  if (from.plugin) extra.plugin = from.plugin;
  if (from.skill !== undefined) extra.skill = from.skill;
  if (from.agent !== undefined) extra.agent = from.agent;

  const matcherField = claudeEvent(raw.event)?.matcher_field;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const command =
    raw.type === 'command'
      ? str(h.command)
      : raw.type === 'http'
        ? str(h.url)
        : raw.type === 'mcp_tool'
          ? `${str(h.server)}/${str(h.tool)}`
          : str(h.prompt);
  const decl: Declaration = {
    dialect: 'claude',
    name: raw.name,
    event: raw.event,
    source: from.source,
    mode: extra.async ? 'async' : 'sync',
    required: false,
    priority: 0,
    timeout_ms: Math.round(effectiveTimeoutS(raw) * 1000),
    enabled: status !== 'disabled',
    metadata: {},
    matcher:
      matcherField && raw.matcher !== null && raw.matcher !== '' && raw.matcher !== '*'
        ? { [matcherField]: raw.matcher }
        : {},
    executor_kind: raw.type,
    command,
    args: Array.isArray(h.args) ? h.args.filter((a): a is string => typeof a === 'string') : [],
    env: {},
    secret_env: {},
    cwd: workspace,
    location: { file: from.file, line: raw.at.line, ...(raw.at.column !== undefined ? { column: raw.at.column } : {}) },
    status,
    ...(why !== undefined ? { why } : {}),
    ...(from.skillSource !== undefined ? { skill_source: from.skillSource } : {}),
    extra: extra as unknown as Record<string, unknown>,
  };
  return decl;
}

/** The ClaudeExtra of a claude declaration. */
export function claudeExtra(d: Declaration): ClaudeExtra {
  return d.extra as unknown as ClaudeExtra;
}
