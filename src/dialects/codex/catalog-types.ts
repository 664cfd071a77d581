// The shape of the generated Codex CLI catalog (catalog.generated.ts, from codex-events.json by
// scripts/gen-codex-catalog.mjs): every field as the JSON writes it; its `keys` object explains
// each one (codex.md §3).

export type CodexEventName =
  | 'PreToolUse'
  | 'PermissionRequest'
  | 'PostToolUse'
  | 'PreCompact'
  | 'PostCompact'
  | 'SessionStart'
  | 'SessionEnd'
  | 'UserPromptSubmit'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'Stop'
  | 'Interrupt';

export interface CodexEventData {
  name: string;
  /** Snake case, used in keys and in the hashed identity (codex.md §2.5, §2.6). */
  label: string;
  scope: string;
  /** The payload field a group matcher is tested against; null: the matcher is ignored (§4). */
  matcher_field: string | null;
  matcher_values: string[] | null;
  payload_fields: string[];
  /** Top-level answer keys the event accepts; any other key fails the answer (§5.5). */
  output_fields: string[];
  /** Decoded, then refused by the event's check (`continue:false`, `decision:approve`, …). */
  unsupported_output_fields: string[];
  hook_specific_fields: string[];
  decisions: string[];
  /** What exit 2 with non-blank stderr means; null: an ordinary failure. */
  exit2: 'deny' | 'block' | 'feedback' | null;
  exit2_empty_error: string | null;
  /** Exit 0 with text that is not JSON. */
  plain_stdout: 'context' | 'ignored' | 'failed' | 'not_read';
  plain_stdout_error: string | null;
  invalid_json_error: string | null;
  verdicts: string[];
  additional_context: boolean;
  context_limit: boolean;
  default_timeout_s: number;
  max_timeout_s: number | null;
  /** `async: true` runs in the background; false: forced sync. */
  async: boolean;
  mcp_tool: boolean;
  /** CODEX_ENV_FILE / CLAUDE_ENV_FILE are set. */
  env_file: boolean;
}

export interface CodexCatalogMeta {
  dialect: string;
  describes: Record<string, unknown>;
  universal_output_fields: Record<string, string>;
  handler_fields: Record<string, Record<string, string>>;
  handler_types: Record<string, string>;
  permission_mode_values: string[];
  matcher_rules: Record<string, unknown>;
}
