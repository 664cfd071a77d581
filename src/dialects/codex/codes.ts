// Diagnostic codes only the codex dialect emits (codex.md §2.2), with a one-line meaning
// (docs/DIAGNOSTICS.md is written from this table). Shared codes (json_parse_error,
// toml_parse_error, file_unreadable, invalid_utf8, binary_file, path_escapes_root) keep their
// meaning from src/declarations/codes.ts.
export const CODEX_DIAGNOSTIC_CODES = {
  codex_file_rejected:
    'Codex rejects the whole file (an unknown root key, a duplicate field or a type error): none of its hooks runs; in config.toml Codex does not start.',
  codex_unknown_event: 'A hook event name that is not in the Codex catalog (names are case-sensitive).',
  codex_invalid_group: 'hooks.<Event> is not a list of matcher groups, or a group is not a table with a "hooks" list.',
  codex_invalid_handler_type: 'A handler whose type is not command, mcp_tool, prompt or agent.',
  codex_field_required:
    'A required handler field is missing (the file is rejected) or blank (Codex skips the handler).',
  codex_empty_command: 'A command that is empty after trimming: Codex skips the hook.',
  codex_handler_unsupported: 'A prompt or agent handler: Codex skips it.',
  codex_mcp_not_supported: 'An mcp_tool handler on SessionEnd: Codex skips it.',
  codex_mcp_input_not_toml:
    'An mcp_tool input holding null: it cannot be represented as TOML, so the file is rejected.',
  codex_invalid_matcher: 'A matcher that is not a valid regular expression: Codex skips its group.',
  codex_invalid_timeout: 'A timeout that is not a whole number of seconds ≥ 0: the file is rejected.',
  codex_timeout_clamped: 'A SessionEnd or Interrupt timeout above 3 s: Codex uses 3 s.',
  codex_timeout_zero: 'timeout 0: Codex raises it to 1 s.',
  codex_async_forced_sync: 'async on SessionEnd: the hook runs synchronously.',
  codex_context_limit_ignored: 'additionalContextLimit on an event that does not honour it.',
  codex_matcher_ignored: 'A matcher on UserPromptSubmit, Stop or Interrupt: ignored, the hook runs on every event.',
  codex_unknown_key: 'A key Codex does not know in a group or handler: ignored.',
  codex_both_representations: 'One layer declares hooks in both hooks.json and config.toml (Codex warns too).',
  codex_state_ignored: '[hooks.state] outside the user config.toml: Codex ignores it.',
  codex_invalid_state: 'A hooks.state entry of the wrong shape: Codex ignores it.',
  codex_untrusted: 'A hook with no trusted hash: Codex skips it until it is trusted (hooks trust).',
  codex_modified: 'A hook whose definition changed since it was trusted: Codex skips it until trusted again.',
  codex_hooks_disabled: '[features] hooks (or codex_hooks) is false: no codex hook runs.',
  codex_deprecated_feature_key: '[features] codex_hooks is a deprecated alias of [features] hooks.',
  codex_project_untrusted:
    'A project whose folder is not trusted in the user config.toml: Codex does not load its .codex/ layers.',
  codex_plugin_not_installed:
    'A plugin enabled in the user config.toml with no installed copy, or whose copy has no .codex-plugin/plugin.json.',
  codex_trust_managed: 'hooks trust on a managed hook: Codex trusts it by policy.',
} as const;

export type CodexDiagnosticCode = keyof typeof CODEX_DIAGNOSTIC_CODES;
