// What §4–§6 read from one catalog entry (claude.md §3). The generated catalog module carries
// these fields with the names of spec/claude-events.json; this type names only the ones the
// matcher and the dispatch use, so they work on any entry that has them.

export type Exit2Effect = 'deny' | 'block' | 'feedback' | 'decline' | 'fail' | 'notice' | 'ignored';
export type DecisionKind = 'permission' | 'permission_request' | 'block' | 'elicitation' | 'worktree_path' | 'none';

export interface ClaudeEventFacts {
  name: string;
  /** The payload field the group matcher tests; null: the event has no matcher. */
  matcher_field: string | null;
  /** FileChanged, StopFailure: the exact-name form allows only letters, digits, `_` and `|`. */
  narrow_matcher: boolean;
  exit2: Exit2Effect;
  decision_kind: DecisionKind;
  /** Plain stdout on exit 0 is context. */
  stdout_context: boolean;
  /** Hooks get CLAUDE_ENV_FILE. */
  env_file: boolean;
  /** Default timeout of command/http/mcp_tool handlers where it differs from the type's; else null. */
  default_timeout_s: number | null;
  /** Honoured output fields; dotted names under hookSpecificOutput. */
  output_fields: readonly string[];
  payload_fields: readonly string[];
}

/** The type defaults of claude.md §2.1, in seconds. */
export const TYPE_DEFAULT_TIMEOUT_S: Readonly<Record<string, number>> = {
  command: 600,
  http: 600,
  mcp_tool: 600,
  prompt: 30,
  agent: 60,
};

/** The events whose handlers may carry `if` (claude.md §2.1). */
export const IF_EVENTS: ReadonlySet<string> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
]);
