// Every diagnostic code the compozy loaders and validators emit, with a one-line meaning.
// Codes are stable snake_case identifiers (SPEC §6: "listed in the docs"); docs/DIAGNOSTICS.md is
// written from this table. Add a code here before emitting it anywhere.

export const DIAGNOSTIC_CODES = {
  // ---- files ----
  file_unreadable: 'The file exists but could not be read (permissions, a folder in its place, an I/O error).',
  binary_file: 'The file contains NUL bytes, so it is not a text declaration file.',
  invalid_utf8: 'The file is not valid UTF-8 text.',
  nesting_too_deep:
    'Brackets or braces nest deeper than 256 levels; no declaration format needs that, so the file is not read.',
  unknown_file_kind:
    'hooks validate was given a file whose kind it cannot tell (not config.toml, extension.toml, extension.json, AGENT.md or SKILL.md).',
  toml_parse_error: 'TOML syntax error.',
  yaml_parse_error: 'YAML syntax error in a front matter.',
  json_parse_error: 'JSON syntax error.',
  frontmatter_unterminated: 'A front matter opened with "---" (or "+++") is never closed.',
  frontmatter_missing: 'An AGENT.md or SKILL.md with no front matter at all: CompozyOS refuses it.',
  frontmatter_bom:
    'An AGENT.md or SKILL.md that starts with a UTF-8 byte-order mark: CompozyOS refuses it, so none of its hooks runs.',
  frontmatter_not_a_map: 'The front matter is not a map of keys.',
  invalid_section:
    'A section hookctl reads (hooks, hooks.declarations, resources.hooks, an AGENT.md hooks list, metadata.compozy.hooks) has the wrong type.',

  // ---- declaration fields (SPEC §2.1) ----
  declaration_not_a_table: 'A hook declaration is not a table/map.',
  unknown_field: 'A key that a hook declaration of this source does not have (source and skill_source included).',
  invalid_field_type: 'A declaration field has the wrong type (for example args that is not a list of strings).',
  name_required: 'The hook has no name.',
  invalid_event:
    'The event is not in the CompozyOS event catalog of the selected release (another release that has it is named).',
  removed_event: 'SKILL.md names an event that was removed (on_session_created, on_session_stopped).',
  invalid_mode: 'mode is neither sync nor async.',
  sync_on_async_event: 'mode = "sync" on an event that only runs async hooks.',
  required_async: 'required = true on an async hook.',
  priority_out_of_range: 'priority is not an integer in int32 range.',
  invalid_timeout: 'timeout is not a Go duration string.',
  negative_timeout: 'timeout is negative.',
  invalid_env_name: 'An env or secret_env name does not match ^[A-Za-z_][A-Za-z0-9_]*$.',
  secret_env_name: 'A literal env entry has a secret-like name; it must move to secret_env.',
  invalid_secret_ref: 'A secret_env reference is neither env:NAME nor vault:hooks/<path>.',
  vault_ref_unresolvable:
    'A secret_env reference points into the vault, which hookctl cannot read; firing the hook will fail.',
  executor_fields_conflict: 'command/args/env/secret_env are written both at the top level and under executor.',
  executor_kind_required: 'No command and no executor kind.',
  executor_not_implemented: 'Executor kind http, agent or wasm: recognised but not implemented.',
  invalid_executor_kind: 'An executor kind that does not exist.',
  native_executor_forbidden: 'A native executor declared outside a native source.',
  command_required: 'A subprocess hook without a command.',
  executor_fields_require_subprocess: 'command/args/env/secret_env given to an executor that is not a subprocess.',

  // ---- matchers (SPEC §2.2) ----
  matcher_field_not_allowed:
    "Matcher fields the event's family does not accept (agent_type and unknown keys included).",
  invalid_matcher_pattern: "A matcher pattern that Go's path.Match rejects.",
  invalid_matcher_value: 'A matcher value of the wrong type (tool_read_only must be a boolean, the others strings).',
  autonomy_field_not_nested:
    'An autonomy correlation field written flat under matcher where it must sit under matcher.autonomy.',
  flat_autonomy_field:
    'An autonomy correlation field written flat under matcher (accepted in config.toml and AGENT.md; move it under matcher.autonomy).',
  unknown_autonomy_field: 'A key under matcher.autonomy that is not an autonomy correlation field.',
  autonomy_field_conflict: 'An autonomy field set both flat and under matcher.autonomy.',
  retired_matcher_key:
    'compaction_reason/compaction_strategy in config or an extension: dropped, the hook runs with no trigger filter.',
  retired_matcher_key_shim:
    'compaction_reason/compaction_strategy in AGENT.md or SKILL.md: dropped by a compatibility shim that goes away in v0.6.0.',
  matcher_agent_name_mismatch: 'An AGENT.md hook sets matcher.agent_name to another agent.',

  // ---- sources (SPEC §2.4) ----
  duplicate_hook_name: 'A hook name repeated within one file: the later declaration replaces the earlier one.',
  agent_name_mismatch: 'An AGENT.md whose name differs from its folder name.',
  skill_name_required: 'A SKILL.md that declares hooks has no name in its front matter.',
  compozy_metadata_not_a_map: 'A SKILL.md metadata.compozy that is not a map: the skill contributes no hooks.',
  extension_name_required: 'An extension manifest without [extension] name: its hooks are not loaded.',
  invalid_manifest_field:
    'An extension manifest field CompozyOS rejects: an unknown key under [resources], an [extension] version that is missing or not a semantic version, an unknown min_* key.',
  invalid_env_template: 'An unterminated or malformed {{...}} template in an extension hook.',
  env_template_secret: 'An extension hook reads a secret-like variable through {{env:NAME}}; it must use secret_env.',
  path_escapes_root:
    'An extension hook command resolves outside its extension root (by .. or a symbolic link), or a SKILL.md links out of its skill folder.',
  command_not_found:
    'A hook command path does not exist (inside the extension root, for an extension) or is not an executable file.',
  marketplace_sidecar_invalid: "A marketplace skill's .compozy-meta.json cannot be read; its hooks stay blocked.",
  invalid_marketplace_allowlist: 'skills.allowed_marketplace_hooks in the global config.toml is not a list of strings.',
} as const satisfies Record<string, string>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;
