// hookctl's opt-in payload log (replay.md §2.2): `payloads.jsonl` beside a session's
// hook-runs.jsonl, one line per dispatch, mode 0600, capped, secrets redacted in the stored copy.
// Written only by `hooks fire` when asked (HOOKCTL_RECORD_PAYLOADS=1 or --record-payload); read
// back by `hooks replay --ledger` or a payload-log PATH.
import { chmod, mkdir, open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { displayPath } from '../display-path.js';
import { BadLineNotes, isObject, jsonLines, jsonLinesInput, type LineCounts } from './lines.js';
import type { ReadFile, ReplayEvent } from './model.js';
import { redactValue } from './redact.js';

export const PAYLOADS_FILE = 'payloads.jsonl';
/** A payload larger than this (compact JSON) is stored as `payload: null, omitted: "too_large"`. */
export const MAX_PAYLOAD_BYTES = 262_144;
export const DEFAULT_LOG_MAX_BYTES = 16 * 1024 * 1024;

/** Whether the environment asks `hooks fire` to record payloads. */
export function recordPayloadsFromEnv(env: NodeJS.ProcessEnv): boolean {
  const v = env.HOOKCTL_RECORD_PAYLOADS?.trim().toLowerCase();
  return v === '1' || v === 'true';
}

export function payloadLogOf(hookRunsFile: string): string {
  return join(dirname(hookRunsFile), PAYLOADS_FILE);
}

export interface PayloadLine {
  dispatch_id: string;
  session_id: string;
  dialect: string;
  event: string;
  verdict: string;
  workspace: string;
  recorded_at: string;
  bytes: number;
  redacted: string[];
  payload: unknown;
  omitted?: 'too_large';
}

/**
 * Appends one dispatch's line. Returns a warning when the log is full (nothing written). The file
 * is created 0600, and an existing one with wider permissions is narrowed before the append.
 */
export async function appendPayloadLine(
  file: string,
  facts: Omit<PayloadLine, 'bytes' | 'redacted' | 'payload' | 'omitted'>,
  payload: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const compact = JSON.stringify(payload);
  const bytes = Buffer.byteLength(compact);
  const line: PayloadLine =
    bytes > MAX_PAYLOAD_BYTES
      ? { ...facts, bytes, redacted: [], payload: null, omitted: 'too_large' }
      : (() => {
          const r = redactValue(payload);
          return { ...facts, bytes, redacted: r.pointers, payload: r.value };
        })();
  const text = JSON.stringify(line) + '\n';
  const max = Number(env.HOOKCTL_PAYLOADS_MAX_BYTES);
  const limit =
    env.HOOKCTL_PAYLOADS_MAX_BYTES?.trim() && Number.isFinite(max) && max >= 0 ? max : DEFAULT_LOG_MAX_BYTES;
  await mkdir(dirname(file), { recursive: true });
  const size = await stat(file).then(
    (s) => ({ size: s.size, mode: s.mode & 0o777 }),
    () => undefined,
  );
  if (size !== undefined && size.size + Buffer.byteLength(text) > limit)
    return `payload log ${displayPath(file)} is full (${size.size} bytes); this payload was not recorded`;
  if (size === undefined && Buffer.byteLength(text) > limit)
    return `payload log ${displayPath(file)} is full (0 bytes); this payload was not recorded`;
  if (size !== undefined && size.mode !== 0o600) await chmod(file, 0o600);
  const handle = await open(file, 'a', 0o600);
  try {
    await handle.write(text);
  } finally {
    await handle.close();
  }
  return undefined;
}

/** The old hooks of a dispatch: the hook names of its run records that did not skip. */
export type RunsOfDispatch = (dispatchId: string) => string[] | null;

/** Reads a payload log into events (replay.md §2.2): one per line with a payload. */
export async function readPayloadLog(
  file: string,
  runsOf: RunsOfDispatch,
  keep: (line: PayloadLine) => boolean = () => true,
): Promise<ReadFile> {
  const counts: LineCounts = { lines: 0, torn: 0, foreign: 0 };
  const notes = new BadLineNotes(file);
  const events: ReplayEvent[] = [];
  const skipped: Record<string, number> = {};
  const seqs = new Map<string, number>();
  let entries = 0;
  for await (const { n, value } of jsonLines(file, counts, notes)) {
    if (
      !isObject(value) ||
      typeof value.dispatch_id !== 'string' ||
      typeof value.event !== 'string' ||
      typeof value.session_id !== 'string'
    ) {
      counts.foreign++;
      notes.foreign(n);
      continue;
    }
    const line = value as unknown as PayloadLine;
    if (!keep(line)) continue;
    entries++;
    if (!isObject(line.payload)) {
      skipped.too_large = (skipped.too_large ?? 0) + 1;
      continue;
    }
    const seq = (seqs.get(line.session_id) ?? 0) + 1;
    seqs.set(line.session_id, seq);
    const payload = line.payload;
    events.push({
      session_id: line.session_id,
      seq,
      event: line.event,
      dialect: typeof line.dialect === 'string' ? line.dialect : null,
      tool_name: typeof payload.tool_name === 'string' ? payload.tool_name : null,
      tool_use_id: typeof payload.tool_use_id === 'string' ? payload.tool_use_id : null,
      agent_id: typeof payload.agent_id === 'string' ? payload.agent_id : null,
      timestamp: typeof line.recorded_at === 'string' ? line.recorded_at : null,
      source: { file, line: n, kind: 'payloads' },
      sidechain: typeof payload.agent_id === 'string',
      payload,
      old: {
        verdict: typeof line.verdict === 'string' ? line.verdict : 'unknown',
        basis: 'ledger',
        reason: null,
        hooks: runsOf(line.dispatch_id),
      },
      skills: [],
      redacted: Array.isArray(line.redacted) && line.redacted.length > 0,
      hooksByName: true,
    });
  }
  return {
    input: jsonLinesInput(file, 'payloads', { sessions: seqs, counts, entries, events: events.length }, skipped),
    events,
    warnings: notes.all(),
  };
}
