// The data of `hooks replay` (spec replay.md): the events rebuilt from past sessions, what
// happened to each then, and the per-file counts. Plain data, no I/O.

export type InputKind = 'transcript' | 'subagent_transcript' | 'payloads' | 'events';

/** Where an old decision was read from (replay.md §3.4). */
export type OldBasis =
  | 'attachment'
  | 'progress'
  | 'tool_result'
  | 'system'
  | 'feedback'
  | 'summary'
  | 'transcript'
  | 'ledger'
  | 'events'
  | 'none';

export interface OldDecision {
  /** A verdict of the dialect, `proceeded` (nothing blocked it as far as the file shows) or `unknown`. */
  verdict: string;
  basis: OldBasis;
  reason: string | null;
  /** The command text of the hooks whose traces the file holds; null when no trace names one. */
  hooks: string[] | null;
}

export interface ReplayEvent {
  /** The Claude Code session (or event-file group) the event belongs to. */
  session_id: string;
  /** 1-based within the session, before filters. */
  seq: number;
  event: string;
  /** The dialect that fires it; null: chosen as `fire` chooses. */
  dialect: string | null;
  tool_name: string | null;
  tool_use_id: string | null;
  agent_id: string | null;
  timestamp: string | null;
  source: { file: string; line: number; kind: InputKind };
  sidechain: boolean;
  payload: Record<string, unknown>;
  old: OldDecision;
  /** Skills and commands the session had invoked before this event (replay.md §4.2). */
  skills: string[];
  /** A payload-log event whose stored payload had values redacted. */
  redacted?: boolean;
  /** `old.hooks` holds hook names, not command texts (payload logs, replay.md §5). */
  hooksByName?: boolean;
}

export interface InputReport {
  file: string;
  kind: InputKind;
  session_id: string | null;
  cwd: string | null;
  lines: number;
  entries: number;
  torn: number;
  foreign: number;
  skipped: Record<string, number>;
  events: number;
}

/** A file read: its counts, its events (seq not yet given) and the warnings of replay.md §3.1. */
export interface ReadFile {
  input: InputReport;
  events: ReplayEvent[];
  warnings: string[];
}
