// The eight cosh-core hook events (SPEC §4.1, seed 000 "Event Points"), what each event's hook
// receives on stdin and what it may answer on stdout (SPEC §4.4, seed 000 "Protocol").
//
// Field types use the compozy catalog's vocabulary (string, boolean, object, json, …) so one
// schema builder serves both dialects. Per-event input fields follow cosh-core's own hook types
// (copilot-shell packages/core/src/hooks/types.ts); the seed's example shows the base fields plus
// tool_name/tool_input.
import type { EventRow } from '../types.js';
import type { ObjectType as PayloadType } from '../../events/schema.js';

export type CoshDecision = 'block' | 'allow' | 'ask';

export interface CoshEvent {
  name: string;
  /** Decisions the event takes; any other decision is recorded and ignored. */
  decisions: readonly CoshDecision[];
  /** The event takes at least one decision. */
  interceptable: boolean;
  /** A hook's `matcher` (a regex on tool_name) applies: PreToolUse, PostToolUse, PostToolUseFailure. */
  tool_matcher: boolean;
  /** The seed's trigger timing. */
  summary: string;
}

/** What a hook receives on stdin for this event, under a cosh-core type name. */
const COSH_PAYLOAD_TYPE_SUFFIX = 'Input';
/**
 * What every cosh hook answers with. One type for all eight events: the seed defines a single
 * decision object; events differ only in which decisions they act on.
 */
export const COSH_OUTPUT_TYPE = 'HookOutput';

function coshEventOf(
  name: string,
  decisions: readonly CoshDecision[],
  toolMatcher: boolean,
  summary: string,
): CoshEvent {
  return { name, decisions, interceptable: decisions.length > 0, tool_matcher: toolMatcher, summary };
}

/** Seed order. */
const COSH_EVENTS: readonly CoshEvent[] = [
  coshEventOf('PreToolUse', ['block', 'allow', 'ask'], true, 'Before tool execution'),
  coshEventOf('PostToolUse', ['block', 'allow'], true, 'After tool execution'),
  coshEventOf('PostToolUseFailure', [], true, 'After tool execution failure'),
  coshEventOf('UserPromptSubmit', ['block', 'allow'], false, 'When user message is submitted'),
  coshEventOf('SessionStart', [], false, 'After session initialization'),
  coshEventOf('Stop', ['block', 'allow'], false, 'When Agent decides to stop'),
  coshEventOf('BeforeModel', [], false, 'Before LLM request is sent'),
  coshEventOf('AfterModel', [], false, 'After LLM response is received'),
];

const BY_NAME: ReadonlyMap<string, CoshEvent> = new Map(COSH_EVENTS.map((e) => [e.name, e]));

export function coshEvent(name: string): CoshEvent | undefined {
  return BY_NAME.get(name);
}

/** The eight events in seed order. */
export function coshEvents(): readonly CoshEvent[] {
  return COSH_EVENTS;
}

/** The payload type name of an event, e.g. `PreToolUseInput`. */
export function coshPayloadTypeName(event: string): string {
  return `${event}${COSH_PAYLOAD_TYPE_SUFFIX}`;
}

// ---------------------------------------------------------------------------------------------
// stdin

export interface CoshField {
  name: string;
  type: string;
  enum?: readonly string[];
  /** Sent on every event; hookctl fills it in when the fired payload lacks it (SPEC §4.4). */
  base: boolean;
  description: string;
}

/** Every event's input carries these; hookctl adds each one that is absent. */
export const COSH_BASE_INPUT_FIELDS: readonly CoshField[] = [
  { name: 'session_id', type: 'string', base: true, description: 'The session the hook runs in.' },
  {
    name: 'transcript_path',
    type: 'string',
    base: true,
    description: 'The session directory, $COSH_HOME/sessions/<session_id>.',
  },
  { name: 'cwd', type: 'string', base: true, description: 'The workspace.' },
  { name: 'hook_event_name', type: 'string', base: true, description: 'The event, e.g. PreToolUse.' },
  { name: 'timestamp', type: 'string', base: true, description: 'When the event fired, RFC 3339 UTC.' },
];

const PERMISSION_MODES = ['default', 'plan', 'accept_edit', 'dont_ask', 'bypass_permissions'] as const;

function field(name: string, type: string, description: string, values?: readonly string[]): CoshField {
  return values ? { name, type, enum: values, base: false, description } : { name, type, base: false, description };
}

const TOOL_NAME = field('tool_name', 'string', 'The tool being called; what a hook matcher (regex) is tested against.');
const TOOL_INPUT = field('tool_input', 'object', 'The arguments of the tool call.');
const MCP_CONTEXT = field('mcp_context', 'object', 'For MCP tools: the server name and connection.');
const ORIGINAL_REQUEST_NAME = field(
  'original_request_name',
  'string',
  'The original tool name when this is a tail call.',
);
const TOOL_USE_ID = field('tool_use_id', 'string', 'Identifier of the tool call.');
const PERMISSION_MODE = field('permission_mode', 'string', 'The current permission mode.', PERMISSION_MODES);
const LLM_REQUEST = field('llm_request', 'object', 'The model request: model, messages, config, toolConfig.');

/** Event-specific input fields, after the base fields. */
const EVENT_INPUT_FIELDS: Readonly<Record<string, readonly CoshField[]>> = {
  PreToolUse: [
    TOOL_NAME,
    TOOL_INPUT,
    PERMISSION_MODE,
    MCP_CONTEXT,
    field('skill_context', 'object', 'For the skill tool: skill_name and file_path.'),
    ORIGINAL_REQUEST_NAME,
  ],
  PostToolUse: [
    TOOL_USE_ID,
    TOOL_NAME,
    TOOL_INPUT,
    field('tool_response', 'object', 'The result of the tool call.'),
    MCP_CONTEXT,
    ORIGINAL_REQUEST_NAME,
  ],
  PostToolUseFailure: [
    TOOL_USE_ID,
    TOOL_NAME,
    TOOL_INPUT,
    field('error', 'string', 'What went wrong.'),
    field('error_type', 'string', 'The kind of failure, e.g. timeout, permission.'),
    field('is_interrupt', 'boolean', 'The user interrupted the tool.'),
  ],
  UserPromptSubmit: [field('prompt', 'string', 'The text the user submitted.')],
  SessionStart: [
    field('source', 'string', 'Why the session started.', ['startup', 'resume', 'clear', 'compact']),
    field('model', 'string', 'The model of the session.'),
    PERMISSION_MODE,
  ],
  Stop: [
    field('stop_hook_active', 'boolean', 'A Stop hook already caused a retry in this sequence.'),
    field('last_assistant_message', 'string', 'The final text the agent produced.'),
  ],
  BeforeModel: [LLM_REQUEST],
  AfterModel: [LLM_REQUEST, field('llm_response', 'object', 'The model response: text, candidates, usageMetadata.')],
};

/** Base fields then the event's own fields; undefined for an unknown event. */
export function coshInputFields(event: string): readonly CoshField[] | undefined {
  if (!BY_NAME.has(event)) return undefined;
  return [...COSH_BASE_INPUT_FIELDS, ...(EVENT_INPUT_FIELDS[event] ?? [])];
}

// ---------------------------------------------------------------------------------------------
// stdout

export interface CoshOutputField {
  name: string;
  type: string;
  enum?: readonly (string | null)[];
  description: string;
}

/** Every value `decision` may hold: empty, null or absent is a pass-through; `deny` counts as `block`. */
const COSH_DECISION_VALUES: readonly (string | null)[] = ['allow', 'block', 'deny', 'ask', '', null];

/**
 * The decision object (seed "Output" and "Additional Fields"). Other keys (cosh-core's
 * `continue`, `stopReason`, `suppressOutput`) are accepted and ignored.
 */
export const COSH_OUTPUT_FIELDS: readonly CoshOutputField[] = [
  {
    name: 'decision',
    type: 'string',
    enum: COSH_DECISION_VALUES,
    description:
      'allow; block or deny (intercept, the chain ends); ask (user confirmation); empty or absent: pass-through.',
  },
  {
    name: 'reason',
    type: 'string',
    description: 'Why; embedded in block/deny decisions, and the notification message when systemMessage is absent.',
  },
  { name: 'systemMessage', type: 'string', description: 'Notification message shown to the user (wins over reason).' },
  {
    name: 'hookSpecificOutput',
    type: 'object:HookSpecificOutput',
    description: 'Custom JSON data; its additional_context is injected into the conversation context.',
  },
];

/** Nested types the cosh fields refer to, in the compozy PayloadType shape. */
export const COSH_NESTED_TYPES: Readonly<Record<string, PayloadType>> = {
  HookSpecificOutput: { fields: { additional_context: 'string' } },
};

/**
 * Whether hookctl acts on an output field for this event: decisions only where the event takes
 * one; reason, systemMessage (notifications) and additional_context always.
 */
export function coshOutputFieldApplied(event: CoshEvent, fieldName: string): boolean {
  return fieldName === 'decision' ? event.interceptable : true;
}

/** Family shown for every cosh event: cosh has no families. */
const COSH_FAMILY = 'cosh';

/**
 * One row of `hooks events` (SPEC §6). `sync_eligible` is always true: cosh hooks always run in
 * order and are awaited. `deny` is `block` when the event is interceptable. The type names are
 * cosh-core's own: `<Event>Input`, and `HookOutput` (the decision object) for every event.
 */
export function coshEventRow(e: CoshEvent): EventRow {
  return {
    event: e.name,
    dialect: 'cosh',
    family: COSH_FAMILY,
    sync_eligible: true,
    deny: e.interceptable ? 'block' : null,
    payload: coshPayloadTypeName(e.name),
    patch: COSH_OUTPUT_TYPE,
  };
}
