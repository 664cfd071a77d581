// The flags of `hooks fire` (SPEC §6, §7.2, §7.3; claude.md §7): declared here so the command
// stays an adapter.
import { Flags } from './base-command.js';
import { dialectNames } from '../dialects/registry.js';

export const fireFlags = {
  payload: Flags.string({ description: 'Read the payload from this file ("-" for stdin).' }),
  session: Flags.string({
    description: 'Session id of the run; replaces the payload session_id (default: that, else a new id).',
  }),
  hook: Flags.string({
    description:
      'Run only the declarations of this hook name (claude: as hooks list shows it, such as project:PreToolUse:1.1).',
  }),
  'no-record': Flags.boolean({ description: 'Record nothing in the session log.' }),
  'record-payload': Flags.boolean({
    description:
      "Also keep the payload (secrets redacted) in the session's payload log, for hooks replay (or HOOKCTL_RECORD_PAYLOADS=1).",
  }),
  'skip-invalid': Flags.boolean({
    description: 'Run the valid declarations although others have errors (each skipped one is named on stderr).',
  }),
  verbose: Flags.boolean({
    char: 'v',
    description: "Print each hook's captured stdout and stderr on stderr (shown, never recorded).",
  }),
  dialect: Flags.string({
    description: 'The dialect whose event this is (default: the one whose catalog has it).',
    options: dialectNames(),
  }),
  skill: Flags.string({
    description:
      'claude: run the hooks of this skill or slash command, as if it were invoked (repeatable; "*" for all).',
    multiple: true,
  }),
  agent: Flags.string({ description: 'claude: run the hooks of this subagent (default: the payload agent_type).' }),
  'trust-all': Flags.boolean({
    description: 'Also run hooks the runtime skips until their exact definition has been reviewed and trusted.',
  }),
  'payload-only': Flags.boolean({ description: 'Print only the final payload JSON.' }),
  'dry-run': Flags.boolean({ description: 'Run and record nothing: show which hooks would run and why.' }),
};
