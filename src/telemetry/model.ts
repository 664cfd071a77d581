// What hookctl exports to OpenTelemetry (SPEC §9), as plain data: a `hookctl.dispatch` span per
// dispatch, a `hookctl.hook.run` child span and a log record per run. Both paths build it here:
// a live `fire` (ids made before each hook starts, so the hook can get its TRACEPARENT) and
// `runs --export otlp` (rebuilt from ledger records). No OpenTelemetry package is loaded by this
// file; ./otlp.ts turns this data into the SDK's shapes and sends it.
//
// Privacy (docs/OBSERVABILITY.md): attributes come from the record's facts only. Payloads,
// patches, captured output, a cosh `reason` (the hook's own text) and `error` (it can quote a
// hook's output, e.g. an unknown patch field) never leave the machine; a failed run's status
// message is a fixed phrase built from its process facts.
import { createHash, randomBytes } from 'node:crypto';
import type { RunRecord } from '../ledger/record.js';

export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue>;

export const DISPATCH_SPAN = 'hookctl.dispatch';
export const RUN_SPAN = 'hookctl.hook.run';

export interface SpanData {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** The parent came from TRACEPARENT (another process). */
  parentIsRemote?: boolean;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  error?: string;
  /** W3C trace flags of the span context (1 = sampled). */
  traceFlags: number;
  traceState?: string;
}

export interface LogData {
  timeMs: number;
  traceId: string;
  spanId: string;
  traceFlags: number;
  severityNumber: number;
  severityText: string;
  eventName: string;
  body: string;
  attributes: Attributes;
}

export interface Telemetry {
  spans: SpanData[];
  logs: LogData[];
}

/** What a dispatch span knows beyond its runs. */
export interface DispatchFacts {
  dispatchId: string;
  sessionId: string;
  event: string;
  dialect: string;
  /** `payload.tool_call_id` or `payload.tool_use_id`, when the payload has one. */
  toolCallId?: string;
  verdict?: string;
  /** The dispatch failed (a required hook failed, depth exceeded). */
  failed?: boolean;
}

/** A run whose span was opened before its hook started (live fire). */
export interface OpenedRun {
  spanId: string;
  startMs: number;
  endMs?: number;
}

export interface DispatchTrace {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceFlags: number;
  traceState?: string;
  startMs: number;
  endMs: number;
}

/** SPEC §9's attributes of one run, from its record. */
export function runAttributes(r: RunRecord, toolCallId?: string): Attributes {
  const a: Attributes = {
    'hook.name': String(r.hook_name ?? ''),
    'hook.event': String(r.event ?? ''),
    'hook.dialect': String(r.dialect ?? ''),
    'hook.source': String(r.source ?? ''),
    'hook.mode': String(r.mode ?? ''),
    'hook.outcome': String(r.outcome ?? ''),
    'hook.timed_out': r.timed_out === true,
    'session.id': String(r.session_id ?? ''),
    'hook.dispatch_id': String(r.dispatch_id ?? ''),
  };
  if (typeof r.decision === 'string' && r.decision !== '') a['hook.decision'] = r.decision;
  if (typeof r.exit_code === 'number') a['process.exit.code'] = r.exit_code;
  if (toolCallId !== undefined) a['gen_ai.tool.call.id'] = toolCallId;
  return a;
}

/** The tool call id a payload carries, if any (SPEC §9: `tool_call_id` or `tool_use_id`). */
export function toolCallIdOf(payload: Record<string, unknown>): string | undefined {
  for (const key of ['tool_call_id', 'tool_use_id']) {
    const v = payload[key];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/** A failed run's status message: a fixed phrase from process facts, never hook text. */
function failureStatus(r: RunRecord): string {
  if (r.timed_out === true) return 'hook timed out';
  if (typeof r.signal === 'string' && r.signal !== '') return `hook killed by ${r.signal}`;
  if (typeof r.exit_code === 'number' && r.exit_code !== 0) return `hook exited with status ${r.exit_code}`;
  return 'hook failed';
}

const SEVERITY: Record<string, [number, string]> = {
  failed: [17, 'ERROR'],
  denied: [13, 'WARN'],
  rejected: [13, 'WARN'],
  dropped: [13, 'WARN'],
};

function logOf(r: RunRecord, span: SpanData, attributes: Attributes): LogData {
  const [severityNumber, severityText] = SEVERITY[String(r.outcome)] ?? [9, 'INFO'];
  return {
    timeMs: span.endMs,
    traceId: span.traceId,
    spanId: span.spanId,
    traceFlags: span.traceFlags,
    severityNumber,
    severityText,
    eventName: RUN_SPAN,
    body: `hook "${attributes['hook.name']}" ${attributes['hook.outcome']} on ${attributes['hook.event']} in ${r.duration_ms} ms`,
    attributes,
  };
}

/** When a record says it ended, in ms (its `recorded_at`), else `fallback`. */
function endOf(r: RunRecord, fallback: number): number {
  const ms = typeof r.recorded_at === 'string' ? Date.parse(r.recorded_at) : NaN;
  return Number.isNaN(ms) ? fallback : ms;
}

/**
 * One dispatch's spans and logs. `opened` holds the runs whose span ids were handed to their hook
 * (by run_id); the others get an id now, and their times from the record.
 */
export function dispatchTelemetry(
  trace: DispatchTrace,
  facts: DispatchFacts,
  records: readonly RunRecord[],
  opened: ReadonlyMap<string, OpenedRun> = new Map(),
  newSpanId: (r: RunRecord) => string = () => randomSpanId(),
): Telemetry {
  const spans: SpanData[] = [];
  const logs: LogData[] = [];
  const dispatchAttributes: Attributes = {
    'hook.event': facts.event,
    'hook.dialect': facts.dialect,
    'session.id': facts.sessionId,
    'hook.dispatch_id': facts.dispatchId,
  };
  if (facts.verdict !== undefined) dispatchAttributes['hook.verdict'] = facts.verdict;
  if (facts.toolCallId !== undefined) dispatchAttributes['gen_ai.tool.call.id'] = facts.toolCallId;
  spans.push({
    traceId: trace.traceId,
    spanId: trace.spanId,
    ...(trace.parentSpanId !== undefined ? { parentSpanId: trace.parentSpanId, parentIsRemote: true } : {}),
    name: DISPATCH_SPAN,
    startMs: trace.startMs,
    endMs: Math.max(trace.startMs, trace.endMs),
    attributes: dispatchAttributes,
    ...(facts.failed ? { error: 'dispatch failed' } : {}),
    traceFlags: trace.traceFlags,
    ...(trace.traceState !== undefined ? { traceState: trace.traceState } : {}),
  });
  for (const r of records) {
    const run = opened.get(r.run_id);
    const endMs = run?.endMs ?? endOf(r, trace.endMs);
    const startMs = run?.startMs ?? endMs - Math.max(0, Number(r.duration_ms) || 0);
    const attributes = runAttributes(r, facts.toolCallId);
    const span: SpanData = {
      traceId: trace.traceId,
      spanId: run?.spanId ?? newSpanId(r),
      parentSpanId: trace.spanId,
      name: RUN_SPAN,
      startMs,
      endMs: Math.max(startMs, endMs),
      attributes,
      ...(r.outcome === 'failed' ? { error: failureStatus(r) } : {}),
      traceFlags: trace.traceFlags,
      ...(trace.traceState !== undefined ? { traceState: trace.traceState } : {}),
    };
    spans.push(span);
    logs.push(logOf(r, span, attributes));
  }
  return { spans, logs };
}

/**
 * `runs --export otlp`: the selected records grouped by dispatch_id (first appearance order), each
 * group one trace. Ids derive from dispatch_id and run_id, so exporting the same records again
 * sends the same trace and span ids (a backend can tell a repeat from a new dispatch).
 */
export function telemetryFromRecords(records: Iterable<RunRecord>): Telemetry {
  const groups = new Map<string, RunRecord[]>();
  for (const r of records) {
    const key = String(r.dispatch_id ?? '');
    let list = groups.get(key);
    if (list === undefined) groups.set(key, (list = []));
    list.push(r);
  }
  const out: Telemetry = { spans: [], logs: [] };
  for (const [dispatchId, runs] of groups) {
    const ends = runs.map((r) => endOf(r, Date.now()));
    const starts = runs.map((r, i) => ends[i]! - Math.max(0, Number(r.duration_ms) || 0));
    const first = runs[0]!;
    const t = dispatchTelemetry(
      {
        traceId: digestHex(`trace:${dispatchId}`, 32),
        spanId: digestHex(`dispatch:${dispatchId}`, 16),
        traceFlags: 1,
        startMs: Math.min(...starts),
        endMs: Math.max(...ends),
      },
      {
        dispatchId,
        sessionId: String(first.session_id ?? ''),
        event: String(first.event ?? ''),
        dialect: String(first.dialect ?? ''),
      },
      runs,
      new Map(),
      (r) => digestHex(`run:${r.run_id}`, 16),
    );
    out.spans.push(...t.spans);
    out.logs.push(...t.logs);
  }
  return out;
}

/**
 * `telemetryFromRecords` in two passes over records that are streamed rather than held (issue 24):
 * `note` each record once to learn every dispatch's times, then `emit` them again, in the same
 * order, for their spans and logs (a dispatch's span comes with its first record). The same ids
 * and times as telemetryFromRecords; only the order of the items differs.
 */
export class StreamedRecordsTelemetry {
  /** Dispatch id to its index in `times` (start, end) and `sent`: a few dozen bytes per dispatch. */
  private readonly index = new Map<string, number>();
  private times = new Float64Array(2 * 1024);
  private sent = new Uint8Array(1024);
  private readonly now = Date.now();
  runs = 0;

  get dispatchCount(): number {
    return this.index.size;
  }

  note(r: RunRecord): void {
    this.runs++;
    const key = String(r.dispatch_id ?? '');
    const endMs = endOf(r, this.now);
    const startMs = endMs - Math.max(0, Number(r.duration_ms) || 0);
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.index.size;
      this.index.set(key, i);
      if (2 * i + 1 >= this.times.length) {
        const times = new Float64Array(this.times.length * 2);
        times.set(this.times);
        this.times = times;
        const sent = new Uint8Array(this.sent.length * 2);
        sent.set(this.sent);
        this.sent = sent;
      }
      this.times[2 * i] = startMs;
      this.times[2 * i + 1] = endMs;
    } else {
      this.times[2 * i] = Math.min(this.times[2 * i]!, startMs);
      this.times[2 * i + 1] = Math.max(this.times[2 * i + 1]!, endMs);
    }
  }

  /** The record's run span and log, and its dispatch's span with the dispatch's first record. */
  emit(r: RunRecord, out: Telemetry): void {
    const key = String(r.dispatch_id ?? '');
    const i = this.index.get(key);
    if (i === undefined) return; // not noted: not part of this export
    // The first record emitted of a dispatch is its first in file order, as in telemetryFromRecords.
    const t = dispatchTelemetry(
      {
        traceId: digestHex(`trace:${key}`, 32),
        spanId: digestHex(`dispatch:${key}`, 16),
        traceFlags: 1,
        startMs: this.times[2 * i]!,
        endMs: this.times[2 * i + 1]!,
      },
      {
        dispatchId: key,
        sessionId: String(r.session_id ?? ''),
        event: String(r.event ?? ''),
        dialect: String(r.dialect ?? ''),
      },
      [r],
      new Map(),
      (run) => digestHex(`run:${run.run_id}`, 16),
    );
    out.spans.push(...(this.sent[i] === 1 ? t.spans.slice(1) : t.spans));
    out.logs.push(...t.logs);
    this.sent[i] = 1;
  }
}

function digestHex(text: string, length: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

export function randomTraceId(): string {
  return randomBytes(16).toString('hex');
}

export function randomSpanId(): string {
  return randomBytes(8).toString('hex');
}
