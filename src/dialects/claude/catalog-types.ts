// Types of the Claude Code event catalog (claude.md §3), as scripts/gen-claude-catalog.mjs copies
// it from claude-events.json into catalog.generated.ts. Types only: importing this loads nothing.
import type { ClaudeHandlerType } from './model.js';

/** How exit 2 acts on an event (claude.md §5.4). */
export type ClaudeExit2 = 'deny' | 'block' | 'feedback' | 'decline' | 'fail' | 'notice' | 'ignored';

/** How the answers of an event's hooks combine into the verdict (claude.md §5.6). */
export type ClaudeDecisionKind =
  'permission' | 'permission_request' | 'model_switch' | 'block' | 'elicitation' | 'worktree_path' | 'none';

/** `{"<list>.<item>": version}`: when an item of payload_fields, output_fields or matcher_values came or went (claude.md §9). */
export type ClaudeFieldMarkers = Readonly<Record<string, string>>;

export interface ClaudeEventData {
  name: string;
  /** Payload field the group matcher is tested against; null: the event has no matcher. */
  matcher_field: string | null;
  /** Documented values, or null when they are open. */
  matcher_values: readonly string[] | null;
  /** true when matcher_values is the complete set. */
  matcher_values_closed: boolean;
  /** The exact-name form allows only letters, digits, `_` and `|` (FileChanged, StopFailure). */
  narrow_matcher: boolean;
  can_block: boolean;
  exit2: ClaudeExit2;
  exit2_note: string;
  handler_types: readonly ClaudeHandlerType[];
  /** Default for command/http/mcp_tool where it differs from the type's; null: no difference. */
  default_timeout_s: number | null;
  payload_fields: readonly string[];
  /** Honoured output fields; dotted names under hookSpecificOutput. */
  output_fields: readonly string[];
  decision_kind: ClaudeDecisionKind;
  /** Plain stdout on exit 0 becomes context. */
  stdout_context: boolean;
  /** Hooks of this event get CLAUDE_ENV_FILE. */
  env_file: boolean;
  /** The Claude Code version that added the event, where the changelog says. */
  since: string | null;
  /** The first version without the event. */
  removed_in?: string;
  field_since?: ClaudeFieldMarkers;
  field_removed_in?: ClaudeFieldMarkers;
  /** The values the event had below `until` (claude.md §9 `before`). */
  before?: readonly { until: string; values: Readonly<Record<string, unknown>> }[];
  note?: string;
}

export interface ClaudeCommonPayloadField {
  name: string;
  /** Present in every payload. */
  always: boolean;
  values?: readonly string[];
  since?: string;
  note?: string;
}

export interface ClaudeHandlerTypeData {
  /** The fields of this type beyond the common ones. */
  fields: readonly string[];
  required: readonly string[];
  default_timeout_s: number;
  /** The release that added the type. */
  since?: string;
  /** The release that added each of its own fields. */
  field_since?: Readonly<Record<string, string>>;
  note?: string;
}

/** One release that changed the hook contract (claude-events.json `versions`). */
export interface ClaudeVersionEntry {
  version: string;
  date: string | null;
  changes: string;
}

/** Behaviour that changed at a release (claude-events.json `version_rules`, claude.md §9). */
export interface ClaudeVersionRule {
  id: string;
  since: string;
  rule: string;
  before: string;
}

export interface ClaudeMatcherRules {
  match_all: readonly string[];
  exact_chars: string;
  exact_separators: readonly string[];
  narrow_exact_chars: string;
  narrow_separators: readonly string[];
  otherwise: string;
}

export interface ClaudeCatalogSource {
  tag: string;
  what: string;
  version: string;
}

/** Everything of claude-events.json besides the events. */
export interface ClaudeCatalogMeta {
  claude_code_version: string;
  /** What each event field means. */
  keys: Readonly<Record<string, string>>;
  common_payload_fields: readonly ClaudeCommonPayloadField[];
  universal_output_fields: Readonly<Record<string, string>>;
  common_handler_fields: Readonly<Record<string, string>>;
  handler_types: Readonly<Record<ClaudeHandlerType, ClaudeHandlerTypeData>>;
  async_handler_types: readonly ClaudeHandlerType[];
  /** The events on which a handler's `if` is evaluated. */
  if_events: readonly string[];
  matcher_rules: ClaudeMatcherRules;
  /** Strings longer than this are replaced by a preview in Claude Code (claude.md §5.6). */
  output_string_limit_chars: number;
  sources: readonly ClaudeCatalogSource[];
  versions: readonly ClaudeVersionEntry[];
  format: Readonly<Record<string, string>>;
  /** `universal_output_fields.<f>` and `common_handler_fields.<f>`: the release that added each. */
  field_since: Readonly<Record<string, string>>;
  mods: Readonly<Record<string, unknown>> & {
    since: string;
    tool_mod_events: readonly string[];
    tool_settings_events: readonly string[];
  };
  version_rules: readonly ClaudeVersionRule[];
}
