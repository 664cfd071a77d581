// Diagnostic codes only the claude dialect emits (claude.md §2.5), with a one-line meaning
// (docs/DIAGNOSTICS.md is written from this table). Shared codes (json_parse_error,
// yaml_parse_error, frontmatter_*, file_unreadable, binary_file, invalid_utf8, nesting_too_deep,
// path_escapes_root) keep their meaning from src/declarations/codes.ts.
import type { Diagnostic, Severity } from '../../declarations/diagnostics.js';
import type { Position } from '../../declarations/source-file.js';
import type { ClaudeSource } from './model.js';

export const CLAUDE_DIAGNOSTIC_CODES = {
  claude_invalid_setting:
    'A settings key hookctl checks has the wrong type: for hooks, its hooks are ignored; for env, enabledPlugins or a gate, Claude Code rejects the whole file.',
  claude_unknown_event: 'A hook event name that is not in the Claude Code catalog (names are case-sensitive).',
  claude_invalid_group:
    'hooks.<Event> is not a list of {"matcher"?, "hooks": [...]} groups, or a handler is not an object.',
  claude_invalid_handler_type: 'A handler whose type is not command, http, mcp_tool, prompt or agent.',
  claude_handler_type_not_allowed: 'A handler type the event does not accept (prompt or agent on SessionStart, …).',
  claude_field_required: 'A required handler field is missing (command, url, server, tool, prompt) or empty.',
  claude_invalid_field_type: 'A handler or group field has the wrong type.',
  claude_invalid_timeout: 'timeout is not a positive number of seconds.',
  claude_timeout_looks_like_ms: 'timeout is over an hour: Claude Code timeouts are seconds.',
  claude_unknown_key: 'A key no handler type has, or one that belongs to another handler type.',
  claude_once_ignored: '"once" outside skill front matter: Claude Code ignores it.',
  claude_if_not_tool_event: '"if" on an event that does not evaluate it: Claude Code never runs the hook.',
  claude_invalid_if: '"if" is not one permission rule such as "Bash(git *)"; hooks fire lets the hook run.',
  claude_invalid_if_pattern:
    'An "if" file pattern that cannot compile (a range out of order, [z-a]): the hook is invalid.',
  claude_if_not_evaluated:
    'An "if" rule hookctl does not evaluate (WebFetch(domain:…), PowerShell, absolute paths); hooks fire lets the hook run.',
  claude_event_outside_hooks:
    'An event name used as a top-level key beside "hooks" instead of under it: Claude Code ignores it, so its hooks never run.',
  claude_matcher_case:
    'A matcher name that differs from a known value (a tool name) only by case: matching is case-sensitive, so the group never runs for it.',
  claude_command_not_found:
    'A command hook whose script (the first word of the command, resolved) does not exist or is not executable: it fails each time it runs.',
  claude_matcher_ignored: 'A matcher on an event without a matcher field: ignored, the hook runs on every event.',
  claude_invalid_matcher: 'A matcher on the regular-expression path that is not a valid JavaScript regular expression.',
  claude_unknown_matcher_value: 'An exact matcher value outside the closed set of values of the event.',
  claude_matcher_is_rule: 'A matcher shaped like a permission rule (Bash(git *)): it is read as a regular expression.',
  claude_exec_command_whitespace:
    'Exec form ("args") with a command that contains white space: it names no executable.',
  claude_plugin_var_outside_plugin:
    '${CLAUDE_PLUGIN_ROOT} or ${CLAUDE_PLUGIN_DATA} in a hook that belongs to no plugin.',
  claude_user_config_shell_form: '${user_config.KEY} in a shell-form command: Claude Code refuses to run it.',
  claude_user_config_unavailable: 'An exec-form plugin hook uses ${user_config.KEY}, whose values hookctl cannot read.',
  claude_powershell_not_run: 'A shell "powershell" hook: hookctl does not run it.',
  claude_tool_input_env: '$TOOL_INPUT in a command: Claude Code sets no such variable; input comes on stdin.',
  claude_invalid_url: 'An http hook url that is not an http: or https: URL.',
  claude_url_not_allowed: 'An http hook url that no allowedHttpHookUrls pattern matches: the hook is blocked.',
  claude_header_env_not_allowed:
    'A header value references a variable that allowedEnvVars (or httpHookAllowedEnvVars) does not allow.',
  claude_managed_only_setting:
    'allowManagedHooksOnly or strictPluginOnlyCustomization outside managed settings: ignored.',
  claude_hooks_disabled: 'disableAllHooks is true in the file that decides it.',
  claude_plugin_hooks_missing: 'A plugin hooks file without a "hooks" object: Claude Code fails to load the plugin.',
  claude_plugin_duplicate_hooks_file: 'plugin.json "hooks" lists hooks/hooks.json, which is always loaded.',
  claude_plugin_hooks_file_missing: 'plugin.json "hooks" lists a file that does not exist.',
  claude_plugin_not_installed: 'enabledPlugins enables a plugin that has no copy in the plugin cache.',
  claude_plugin_agent_hooks_ignored: 'A plugin subagent declares hooks, which Claude Code ignores.',
} as const satisfies Record<string, string>;

export type ClaudeDiagnosticCode =
  | keyof typeof CLAUDE_DIAGNOSTIC_CODES
  | 'json_parse_error'
  | 'yaml_parse_error'
  | 'frontmatter_unterminated'
  | 'frontmatter_not_a_map'
  | 'file_unreadable'
  | 'binary_file'
  | 'invalid_utf8'
  | 'nesting_too_deep'
  | 'path_escapes_root';

/** A claude diagnostic; `column` and the optional fields are left out when unknown. */
export function claudeDiagnostic(
  severity: Severity,
  code: ClaudeDiagnosticCode,
  message: string,
  file: string,
  at: Position | undefined,
  extra: { source?: ClaudeSource; hook?: string } = {},
): Diagnostic {
  const d: Diagnostic = { severity, code, message, file, line: at?.line ?? 1 };
  if (at?.column !== undefined) d.column = at.column;
  if (extra.source !== undefined) d.source = extra.source;
  if (extra.hook !== undefined) d.hook = extra.hook;
  return d;
}
