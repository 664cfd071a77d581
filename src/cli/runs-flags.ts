// The selection flags of `hooks runs` (SPEC §6, §9) and the selection they make: every mode of
// the command (records, --stats, --follow, --export) reads the same selection.
import { dialectNames } from '../dialects/registry.js';
import { Flags } from './base-command.js';

/** `info`, `runs` and `sessions` read the current workspace's runs unless this widens them (SPEC §9). */
export const allWorkspacesFlag = {
  'all-workspaces': Flags.boolean({
    description:
      'Runs fired in every workspace, and records written before runs carried one (default: only the runs fired in --workspace).',
  }),
};

export const runsSelectionFlags = {
  ...allWorkspacesFlag,
  session: Flags.string({ description: 'Session id (default: the most recently written session).' }),
  'all-sessions': Flags.boolean({ description: 'Every session, the newest session last.', exclusive: ['session'] }),
  dispatch: Flags.string({ description: "Only the runs of this dispatch (a fire's dispatch_id)." }),
  event: Flags.string({ description: 'Only this event, or a path.Match pattern such as "tool.*".' }),
  outcome: Flags.string({
    description: 'Only this outcome.',
    options: ['applied', 'denied', 'failed', 'skipped', 'dropped', 'rejected'],
  }),
  hook: Flags.string({ description: 'Only runs of this hook name.' }),
  dialect: Flags.string({ description: 'Only runs of this dialect.', options: dialectNames() }),
  since: Flags.string({
    description: 'Only runs recorded since an RFC 3339 time or a duration ago (90s, 15m, 2h, 7d).',
  }),
  last: Flags.integer({ description: 'Only the last N matching runs.', min: 1 }),
};

/** What `runs` does with the selection, besides listing it. */
export const runsModeFlags = {
  stats: Flags.boolean({ description: 'One row per hook, event and dialect: counts and p50/p95/p99/max durations.' }),
  follow: Flags.boolean({
    char: 'f',
    description: 'Then print new runs as they are recorded, until Ctrl-C.',
    exclusive: ['stats', 'export'],
  }),
  export: Flags.string({
    description: 'Send the selected runs to OpenTelemetry (OTLP/HTTP).',
    options: ['otlp'],
    exclusive: ['stats'],
  }),
  endpoint: Flags.string({
    description: 'OTLP/HTTP base URL for --export (default: OTEL_EXPORTER_OTLP_ENDPOINT).',
    dependsOn: ['export'],
  }),
};

// The selection they make, and the stop signal of --follow, are oclif-free (the fast path runs them).
export { selectionOf, stopSignal } from './runs-selection.js';
