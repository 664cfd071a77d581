// A run record (SPEC §5): one JSON object per line of a session's hook-runs.jsonl.
//
// Two types: `RunRecord` is a record as read back (a log may hold lines from older versions
// that lack some fields), `RunRecordFields` is what a dialect must give to write one — every
// §5 field, `null` where it has no value, so no dialect can leave one out (record-fields.ts
// builds the record from it, in §5's key order).
import type { Dialect, Mode, SkillSource, Source } from '../declarations/model.js';

export type Outcome = 'applied' | 'denied' | 'failed' | 'skipped' | 'dropped' | 'rejected';

export interface RunRecord {
  run_id: string;
  dispatch_id: string;
  session_id: string;
  dialect: Dialect;
  event: string;
  hook_name: string;
  source: Source;
  skill_source?: SkillSource | null;
  mode: Mode;
  priority: number | null;
  required: boolean;
  outcome: Outcome;
  /** cosh only: the hook's raw decision and reason. */
  decision?: string | null;
  reason?: string | null;
  duration_ms: number;
  dispatch_depth: number;
  exit_code?: number | null;
  signal?: string | null;
  timed_out?: boolean | null;
  stdout_bytes?: number | null;
  stderr_bytes?: number | null;
  truncated?: boolean | null;
  /**
   * Present when stdout started with `{` but was not valid JSON: `<line>:<col>: <why>` (issue 28);
   * the position and the parser's reason, never the output itself. Written after the §5 fields.
   */
  stdout_json_error?: string;
  /** The raw patch, for the permission, prompt, tool and input families. */
  patch_applied?: unknown;
  /** One line, trimmed; never stderr content. */
  error?: string | null;
  /** The absolute workspace the dispatch was fired in (absent from records of older versions). */
  workspace?: string | null;
  /** The file that declared the hook; null when none. */
  declared_in?: string | null;
  /** RFC 3339 with milliseconds, UTC. */
  recorded_at: string;
}

/** SPEC §5's fields, in the order a record is written. */
export const RUN_RECORD_FIELDS = [
  'run_id',
  'dispatch_id',
  'session_id',
  'dialect',
  'event',
  'hook_name',
  'source',
  'skill_source',
  'mode',
  'priority',
  'required',
  'outcome',
  'decision',
  'reason',
  'duration_ms',
  'dispatch_depth',
  'exit_code',
  'signal',
  'timed_out',
  'stdout_bytes',
  'stderr_bytes',
  'truncated',
  'patch_applied',
  'error',
  'workspace',
  'declared_in',
  'recorded_at',
] as const satisfies readonly (keyof RunRecord)[];

/** Stamped when the record is built: its id and its time. */
type Stamped = 'run_id' | 'recorded_at';

/**
 * What a dialect gives to write a record: every field of SPEC §5 but the stamped ones, none
 * optional (`null` where there is no value).
 */
export type RunRecordFields = {
  [K in Exclude<(typeof RUN_RECORD_FIELDS)[number], Stamped>]-?: Exclude<RunRecord[K], undefined>;
};
