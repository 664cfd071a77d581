// Diagnostic codes only the cosh loaders emit, with a one-line meaning (docs/DIAGNOSTICS.md is
// written from this table and ../codes.ts). Codes whose meaning both dialects share (parse
// errors, invalid_field_type, invalid_event, command_required, …) come from ../codes.ts.
import type { DiagnosticCode } from '../../declarations/codes.js';

export const COSH_DIAGNOSTIC_CODES = {
  unknown_key:
    'A key cosh does not read (in a config hook, under [hooks], or in cosh-extension.json): ignored, with a warning.',
  nameless_hook: 'A cosh hook without a name: skipped (listed by `hooks list --all` with name null).',
  matcher_ignored:
    'A cosh matcher on an event without tools (only PreToolUse, PostToolUse and PostToolUseFailure match on tool_name).',
  hooks_disabled:
    '[hooks] enabled = false in the cosh config layer that decides it: config hooks of every layer are dropped.',
  invalid_extension_name:
    'A cosh extension name that is not lowercase [a-z0-9] at both ends with ".", "_" or "-" inside, or is longer than 64 bytes.',
  invalid_hook_type: 'A cosh extension hook whose type is not "command".',
  cosh_states_invalid:
    '$COSH_HOME/states/hooks.json (or extensions.json) is not {"disabled": [names]}: nothing in it is applied.',
  file_not_found: 'hooks validate was given a cosh file that does not exist.',
} as const satisfies Record<string, string>;

export type CoshDiagnosticCode = DiagnosticCode | keyof typeof COSH_DIAGNOSTIC_CODES;
