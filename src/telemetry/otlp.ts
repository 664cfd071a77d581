// Sending telemetry (./model.ts) over OTLP/HTTP: encoded by the official OpenTelemetry serializers
// (@opentelemetry/otlp-transformer, protobuf or JSON), posted by node:http here. Loaded only when
// exporting (a dynamic import: its own chunk in the build), because the OpenTelemetry packages cost
// start-up time that a non-exporting run must not pay.
//
// The spans and log records are handed to the serializers as the SDK's ReadableSpan and
// ReadableLogRecord, built from our data rather than through a tracer: their ids and times are
// what happened (made before each hook started, or read back from the ledger).
//
// The request is ours, not an exporter's, so that its bounds hold (SPEC §9, issues 22 and 24):
// every attempt has a deadline at which its request and socket are destroyed, whatever state they
// are in (connecting to a host that drops the attempt, waiting on headers that trickle), so nothing
// outlives the budget or keeps the process alive; the answer is its status line (the body is never
// waited for); a connection that fails (refused, reset, no route) fails at once, and only the
// statuses OTLP calls retryable (429, 502, 503, 504) are retried, when the wait fits the budget.
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { SpanKind, SpanStatusCode, TraceFlags, type HrTime } from '@opentelemetry/api';
import { millisToHrTime, TraceState } from '@opentelemetry/core';
import {
  JsonLogsSerializer,
  JsonTraceSerializer,
  ProtobufLogsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { OtlpExportConfig, OtlpProtocol, OtlpSignalConfig } from './config.js';
import type { LogData, SpanData, Telemetry } from './model.js';

/** Spans or log records per export request. */
export const BATCH_SIZE = 512;

/** Retries of one request answered with a retryable status, at most. */
export const MAX_RETRIES = 4;
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5000;
/** The statuses the OTLP/HTTP specification says to retry. */
const RETRYABLE = new Set([429, 502, 503, 504]);

export interface SendOptions {
  /** All of the export from this call on, both signals, every batch and retry: a down or slow
   * collector costs at most this, and no request or socket outlives it. */
  budgetMs: number;
  /** One attempt's limit (default: what is left of the budget). */
  requestTimeoutMs?: number;
  /** The instrumentation scope's version: hookctl's. */
  version: string;
}

interface Serializer<T> {
  serializeRequest(items: T[]): Uint8Array | undefined;
}

const CONTENT_TYPE: Record<OtlpProtocol, string> = {
  'http/protobuf': 'application/x-protobuf',
  'http/json': 'application/json',
};

/** Sends what the config has endpoints for. Returns warnings (empty when everything arrived). */
export async function sendTelemetry(
  config: OtlpExportConfig,
  telemetry: Telemetry,
  opts: SendOptions,
): Promise<string[]> {
  const deadline = Date.now() + opts.budgetMs;
  const resource = resourceFromAttributes(config.resource);
  const scope = { name: 'hookctl', version: opts.version };
  const send = { deadline, requestTimeoutMs: opts.requestTimeoutMs ?? Infinity, userAgent: `hookctl/${opts.version}` };
  const jobs: Promise<string | undefined>[] = [];
  if (config.traces !== undefined && telemetry.spans.length > 0) {
    const spans = telemetry.spans.map((s) => readableSpan(s, resource, scope));
    const serializer = config.traces.protocol === 'http/json' ? JsonTraceSerializer : ProtobufTraceSerializer;
    jobs.push(sendAll(['span', 'spans'], config.traces, serializer, spans, send));
  }
  if (config.logs !== undefined && telemetry.logs.length > 0) {
    const logs = telemetry.logs.map((l) => readableLog(l, resource, scope));
    const serializer = config.logs.protocol === 'http/json' ? JsonLogsSerializer : ProtobufLogsSerializer;
    jobs.push(sendAll(['log record', 'log records'], config.logs, serializer, logs, send));
  }
  const results = await Promise.all(jobs);
  return results.filter((w): w is string => w !== undefined);
}

interface SignalStream<T> {
  what: [one: string, many: string];
  signal: OtlpSignalConfig;
  serializer: Serializer<T>;
  pending: T[];
  sent: number;
  total: number;
  failed?: string;
}

/**
 * `runs --export`: telemetry handed over in parts and sent in batches as they fill, one request per
 * signal at a time, so memory holds a batch and not the export (issue 24: 1 M records had peaked
 * at 1.94 GB). The bounds of each request are sendAll's; a signal whose request fails sends no more.
 */
export class TelemetryStream {
  private readonly streams: { spans?: SignalStream<ReadableSpan>; logs?: SignalStream<ReadableLogRecord> } = {};
  private readonly resource: Resource;
  private readonly scope: { name: string; version: string };
  private readonly limits: SendLimits;

  constructor(config: OtlpExportConfig, opts: SendOptions, totals: { spans: number; logs: number }) {
    this.resource = resourceFromAttributes(config.resource);
    this.scope = { name: 'hookctl', version: opts.version };
    this.limits = {
      deadline: Date.now() + opts.budgetMs,
      requestTimeoutMs: opts.requestTimeoutMs ?? Infinity,
      userAgent: `hookctl/${opts.version}`,
    };
    if (config.traces !== undefined && totals.spans > 0) {
      const serializer = config.traces.protocol === 'http/json' ? JsonTraceSerializer : ProtobufTraceSerializer;
      this.streams.spans = {
        what: ['span', 'spans'],
        signal: config.traces,
        serializer,
        pending: [],
        sent: 0,
        total: totals.spans,
      };
    }
    if (config.logs !== undefined && totals.logs > 0) {
      const serializer = config.logs.protocol === 'http/json' ? JsonLogsSerializer : ProtobufLogsSerializer;
      this.streams.logs = {
        what: ['log record', 'log records'],
        signal: config.logs,
        serializer,
        pending: [],
        sent: 0,
        total: totals.logs,
      };
    }
  }

  /** Queues `telemetry`; sends the full batches. */
  async add(telemetry: Telemetry): Promise<void> {
    const { spans, logs } = this.streams;
    if (spans !== undefined && spans.failed === undefined)
      for (const s of telemetry.spans) spans.pending.push(readableSpan(s, this.resource, this.scope));
    if (logs !== undefined && logs.failed === undefined)
      for (const l of telemetry.logs) logs.pending.push(readableLog(l, this.resource, this.scope));
    await Promise.all([this.flush(spans, false), this.flush(logs, false)]);
  }

  /** Sends what is left; the warnings (empty when everything arrived). */
  async finish(): Promise<string[]> {
    const { spans, logs } = this.streams;
    await Promise.all([this.flush(spans, true), this.flush(logs, true)]);
    const warnings: string[] = [];
    for (const st of [spans, logs]) {
      if (st?.failed === undefined) continue;
      const left = st.total - st.sent;
      warnings.push(
        `OpenTelemetry export to ${st.signal.url} failed (${st.failed}): ${left} of ${st.total} ${st.what[st.total === 1 ? 0 : 1]} not sent; the ledger has every run`,
      );
    }
    return warnings;
  }

  private async flush<T>(st: SignalStream<T> | undefined, all: boolean): Promise<void> {
    if (st === undefined) return;
    while (st.failed === undefined && (st.pending.length >= BATCH_SIZE || (all && st.pending.length > 0))) {
      const batch = st.pending.splice(0, BATCH_SIZE);
      try {
        const body = st.serializer.serializeRequest(batch);
        if (body === undefined) throw new Error('the batch could not be encoded');
        await deliver(st.signal, body, this.limits);
        st.sent += batch.length;
      } catch (err) {
        st.failed = (err instanceof Error ? err.message.split('\n')[0] : String(err)) || 'no response';
      }
    }
    if (st.failed !== undefined) st.pending = [];
  }
}

interface SendLimits {
  deadline: number;
  requestTimeoutMs: number;
  userAgent: string;
}

/** Batches one after another; stops at the first failure or at the deadline. */
async function sendAll<T>(
  what: [one: string, many: string],
  signal: OtlpSignalConfig,
  serializer: Serializer<T>,
  items: T[],
  limits: SendLimits,
) {
  let sent = 0;
  try {
    for (let i = 0; i < items.length; i += BATCH_SIZE) {
      const batch = items.slice(i, i + BATCH_SIZE);
      const body = serializer.serializeRequest(batch);
      if (body === undefined) throw new Error('the batch could not be encoded');
      await deliver(signal, body, limits);
      sent += batch.length;
    }
    return undefined;
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return `OpenTelemetry export to ${signal.url} failed (${why || 'no response'}): ${items.length - sent} of ${items.length} ${what[items.length === 1 ? 0 : 1]} not sent; the ledger has every run`;
  }
}

/** One request, retried while its answer is a retryable status and the wait fits the deadline. */
async function deliver(signal: OtlpSignalConfig, body: Uint8Array, limits: SendLimits): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const remaining = limits.deadline - Date.now();
    if (remaining <= 0) throw new Error('out of time');
    const answer = await post(signal, body, Math.min(limits.requestTimeoutMs, remaining), limits.userAgent);
    if (answer.status >= 200 && answer.status < 300) return;
    const wait = retryDelay(answer, attempt, limits.deadline - Date.now());
    if (wait === undefined) throw new Error(`HTTP ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

export interface Answer {
  status: number;
  statusText?: string;
  /** The Retry-After header, as sent. */
  retryAfter?: string;
}

/**
 * How long to wait before retrying an answer, or undefined to give up: only a retryable status
 * (a connection that failed is never retried: it throws before there is an answer), at most
 * MAX_RETRIES times, after the collector's Retry-After (seconds or an HTTP date) or an exponential
 * backoff with ±20 % jitter, and only when that wait ends before the deadline.
 */
export function retryDelay(
  answer: Answer,
  attempt: number,
  remainingMs: number,
  now = Date.now(),
  random = Math.random,
): number | undefined {
  if (!RETRYABLE.has(answer.status) || attempt >= MAX_RETRIES) return undefined;
  const after = retryAfterMs(answer.retryAfter, now);
  const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** attempt) * (0.8 + 0.4 * random());
  const wait = Math.round(after ?? backoff);
  return wait < remainingMs ? wait : undefined;
}

function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * POSTs one body and resolves with the status line; rejects when the connection fails or no
 * answer has begun within `timeoutMs`. Either way the request and its socket are destroyed as soon
 * as it settles: the body of the answer is not read, and nothing of it stays open.
 */
function post(signal: OtlpSignalConfig, body: Uint8Array, timeoutMs: number, userAgent: string): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const url = new URL(signal.url);
    let settled = false;
    let req: ClientRequest | undefined;
    const settle = (outcome: Answer | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const ms = Math.max(1, Math.min(timeoutMs, 2 ** 31 - 1));
    const timer = setTimeout(() => settle(new Error(`no answer within ${Math.round(ms)} ms`)), ms);
    try {
      req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        // A connection of its own, closed with the request: none is pooled or kept alive.
        agent: false,
        headers: {
          ...signal.headers,
          'content-type': CONTENT_TYPE[signal.protocol],
          'content-length': body.byteLength,
          'user-agent': userAgent,
        },
      });
    } catch (err) {
      settle(err instanceof Error ? err : new Error(String(err))); // an invalid header, say
      return;
    }
    req.on('error', (err: NodeJS.ErrnoException) => settle(new Error(err.message || err.code || 'request failed')));
    req.on('response', (res) => {
      res.on('error', () => {}); // destroyed unread below: its "aborted" is expected
      const retryAfter = res.headers['retry-after'];
      settle({
        status: res.statusCode ?? 0,
        ...(res.statusMessage ? { statusText: res.statusMessage } : {}),
        ...(retryAfter !== undefined ? { retryAfter } : {}),
      });
    });
    req.end(body);
  });
}

function hr(ms: number): HrTime {
  return millisToHrTime(ms);
}

function readableSpan(s: SpanData, resource: Resource, scope: { name: string; version: string }): ReadableSpan {
  const traceState = s.traceState !== undefined ? new TraceState(s.traceState) : undefined;
  const durationMs = Math.max(0, s.endMs - s.startMs);
  return {
    name: s.name,
    kind: SpanKind.INTERNAL,
    spanContext: () => ({ traceId: s.traceId, spanId: s.spanId, traceFlags: s.traceFlags, traceState }),
    parentSpanContext:
      s.parentSpanId !== undefined
        ? { traceId: s.traceId, spanId: s.parentSpanId, traceFlags: s.traceFlags, isRemote: s.parentIsRemote === true }
        : undefined,
    startTime: hr(s.startMs),
    endTime: hr(s.endMs),
    duration: hr(durationMs),
    status: s.error !== undefined ? { code: SpanStatusCode.ERROR, message: s.error } : { code: SpanStatusCode.UNSET },
    attributes: s.attributes,
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

function readableLog(l: LogData, resource: Resource, scope: { name: string; version: string }): ReadableLogRecord {
  return {
    hrTime: hr(l.timeMs),
    hrTimeObserved: hr(l.timeMs),
    spanContext: {
      traceId: l.traceId,
      spanId: l.spanId,
      traceFlags: l.traceFlags ? TraceFlags.SAMPLED : TraceFlags.NONE,
    },
    severityNumber: l.severityNumber,
    severityText: l.severityText,
    eventName: l.eventName,
    body: l.body,
    attributes: l.attributes,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
  };
}
