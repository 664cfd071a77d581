// A run record (SPEC §5): one JSON object per line of a session's hook-runs.jsonl.
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
  skill_source?: SkillSource;
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
  timed_out?: boolean;
  stdout_bytes?: number;
  stderr_bytes?: number;
  truncated?: boolean;
  /**
   * Present when stdout started with `{` but was not valid JSON: `<line>:<col>: <why>` (issue 28);
   * the position and the parser's reason, never the output itself.
   */
  stdout_json_error?: string;
  /** The raw patch, for the permission, prompt, tool and input families. */
  patch_applied?: unknown;
  /** One line, trimmed; never stderr content. */
  error?: string;
  /** RFC 3339 with milliseconds, UTC. */
  recorded_at: string;
}
