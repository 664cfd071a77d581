// The diagnostic codes of test files (`hooks test`, SPEC §8), beyond the parse codes shared with
// the declaration loaders (yaml_parse_error, json_parse_error, file_unreadable, …) and the
// schema codes (`schema_<keyword>`, src/validate/schema-codes.ts). docs/HOOKTEST.md lists them.

export const HOOKTEST_CODES = {
  hooktest_payload_conflict: 'A case gives both payload and payload_file.',
  hooktest_payload_file: 'A payload_file cannot be read, is not valid JSON, or is not one JSON object.',
  hooktest_invalid_regex: 'A /regex/ value of reason or context is not a valid regular expression.',
  hooktest_dry_run_expect: 'A dry_run case expects something other than ran / not_ran (a dry run runs nothing).',
  hooktest_workspace: 'The workspace a test file names does not exist or is not a folder.',
  hooktest_unknown_event: 'A case fires an event no dialect knows (or not the dialect it names).',
  hooktest_ambiguous_event: 'A case fires an event that more than one dialect declares, and names no dialect.',
  hooktest_unknown_hook: 'A case names a hook that is not declared for its event.',
  hooktest_unknown_verdict: "A case expects a verdict word its event's dialect never gives.",
} as const satisfies Record<string, string>;

export type HooktestCode = keyof typeof HOOKTEST_CODES;
