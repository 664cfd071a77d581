// The flags of `hooks replay` (spec replay.md §1): declared here so the command stays an adapter.
import { Flags } from './base-command.js';
import { dialectNames } from '../dialects/registry.js';

export const REPLAY_FORMATS = ['human', 'json', 'jsonl', 'junit'] as const;

export const replayFlags = {
  'all-projects': Flags.boolean({ description: 'Read every project folder of the Claude config dir.' }),
  ledger: Flags.boolean({
    description:
      "Replay hookctl's payload logs too (alone without PATH); record them with hooks fire --record-payload.",
  }),
  'all-workspaces': Flags.boolean({ description: "With --ledger: every workspace's recorded payloads." }),
  from: Flags.string({
    description: 'Read every PATH file as this kind.',
    options: ['transcript', 'events', 'payloads'],
  }),
  session: Flags.string({ description: 'Replay only this session (repeatable).', multiple: true }),
  since: Flags.string({ description: 'Only events at or after this time (RFC 3339, or 90m, 12h, 7d ago).' }),
  until: Flags.string({ description: 'Only events at or before this time (RFC 3339, or a duration ago).' }),
  event: Flags.string({ description: 'Only events of this name or path.Match pattern.' }),
  tool: Flags.string({ description: 'Only tool events whose tool_name is this name or pattern.' }),
  sidechain: Flags.string({
    description: 'Subagent-transcript events: include (default), exclude or only.',
    options: ['include', 'exclude', 'only'],
  }),
  last: Flags.integer({ description: 'Only the last N events left by the other filters.' }),
  hook: Flags.string({ description: 'Run only the hooks of this name (repeatable).', multiple: true }),
  skill: Flags.string({
    description: 'claude: activate this skill or command from the start (repeatable; "*" for all).',
    multiple: true,
  }),
  cwd: Flags.string({
    description: 'The cwd of events recorded elsewhere: transcript (default) or workspace.',
    options: ['transcript', 'workspace'],
  }),
  'dry-run': Flags.boolean({ description: 'Match only: run no hook, show which would run.' }),
  'allow-http': Flags.boolean({ description: 'Run http hooks too (default: recorded skipped).' }),
  jobs: Flags.integer({ description: 'Sessions replayed at once (default 4).' }),
  'fail-on': Flags.string({
    description: 'Change kinds that make exit 1: blocks,asks,allows,differs (default), fired, or none.',
  }),
  format: Flags.string({ description: 'Report format (wins over -o).', options: [...REPLAY_FORMATS] }),
  'include-payload': Flags.boolean({ description: "Add each event's payload to json/jsonl reports." }),
  all: Flags.boolean({ description: 'Human report: every event, not only the changed ones.' }),
  progress: Flags.boolean({ description: 'Progress lines on stderr (default: when stderr is a TTY).', allowNo: true }),
  'skip-invalid': Flags.boolean({ description: 'Run the valid declarations although others have errors.' }),
  dialect: Flags.string({ description: 'The dialect of event-file lines that name none.', options: dialectNames() }),
};
