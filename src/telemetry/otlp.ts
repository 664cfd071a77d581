// Sending telemetry (./model.ts) over OTLP/HTTP with the official OpenTelemetry exporters.
// Loaded only when exporting (a dynamic import: its own chunk in the build), because the
// OpenTelemetry packages cost start-up time that a non-exporting run must not pay.
//
// The spans and log records are handed to the exporters as the SDK's ReadableSpan and
// ReadableLogRecord, built from our data rather than through a tracer: their ids and times are
// what happened (made before each hook started, or read back from the ledger), and every export
// call's outcome is seen here, so a collector that is down or slow costs a bounded time and one
// warning, and never the verdict, the exit code or the ledger.
import { SpanKind, SpanStatusCode, TraceFlags, type HrTime } from '@opentelemetry/api';
import { millisToHrTime, TraceState } from '@opentelemetry/core';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { OtlpExportConfig, OtlpSignalConfig } from './config.js';
import type { LogData, SpanData, Telemetry } from './model.js';

/** Spans or log records per export request. */
export const BATCH_SIZE = 512;

export interface SendOptions {
  /** All of the export from this call on, loading the exporters, both signals, every batch and
   * retry: a down or slow collector costs at most this. */
  budgetMs: number;
  /** One request's limit, retries included (default: the budget). */
  requestTimeoutMs?: number;
  /** The instrumentation scope's version: hookctl's. */
  version: string;
}

interface Exporter<T> {
  export(items: T[], done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
}

/** Sends what the config has endpoints for. Returns warnings (empty when everything arrived). */
export async function sendTelemetry(
  config: OtlpExportConfig,
  telemetry: Telemetry,
  opts: SendOptions,
): Promise<string[]> {
  const deadline = Date.now() + opts.budgetMs;
  const resource = resourceFromAttributes(config.resource);
  const scope = { name: 'hookctl', version: opts.version };
  const sendTraces = config.traces !== undefined && telemetry.spans.length > 0;
  const sendLogs = config.logs !== undefined && telemetry.logs.length > 0;
  // The exporter packages load first, inside the budget; each request then gets what is left, so
  // a request still waiting on a slow collector never outlives the budget (nor keeps us alive).
  const [TraceExporter, LogExporter] = await Promise.all([
    sendTraces ? traceExporterClass(config.traces!) : undefined,
    sendLogs ? logExporterClass(config.logs!) : undefined,
  ]);
  const timeoutMillis = Math.max(1, Math.min(opts.requestTimeoutMs ?? Infinity, deadline - Date.now()));
  const options = (c: OtlpSignalConfig) => ({
    url: c.url,
    headers: c.headers,
    timeoutMillis,
    httpAgentOptions: { keepAlive: false },
  });
  const jobs: Promise<string | undefined>[] = [];
  if (TraceExporter !== undefined) {
    const spans = telemetry.spans.map((s) => readableSpan(s, resource, scope));
    const exporter = new TraceExporter(options(config.traces!));
    jobs.push(sendAll(['span', 'spans'], config.traces!.url, exporter, spans, deadline));
  }
  if (LogExporter !== undefined) {
    const logs = telemetry.logs.map((l) => readableLog(l, resource, scope));
    const exporter = new LogExporter(options(config.logs!));
    jobs.push(sendAll(['log record', 'log records'], config.logs!.url, exporter, logs, deadline));
  }
  const results = await Promise.all(jobs);
  return results.filter((w): w is string => w !== undefined);
}

/** Batches one after another; stops at the first failure or at the deadline. */
async function sendAll<T>(
  what: [one: string, many: string],
  url: string,
  exporter: Exporter<T>,
  items: T[],
  deadline: number,
) {
  let sent = 0;
  try {
    for (let i = 0; i < items.length; i += BATCH_SIZE) {
      const batch = items.slice(i, i + BATCH_SIZE);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('out of time');
      const result = await withDeadline(
        new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(batch, resolve)),
        remaining,
      );
      if (result.code !== 0) throw result.error ?? new Error('export failed');
      sent += batch.length;
    }
    return undefined;
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return `OpenTelemetry export to ${url} failed (${why || 'no response'}): ${items.length - sent} of ${items.length} ${what[items.length === 1 ? 0 : 1]} not sent; the ledger has every run`;
  } finally {
    void exporter.shutdown().catch(() => {});
  }
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  if (ms > 2 ** 31 - 1) return work; // no deadline (a timer that long would fire at once)
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref(); // never what keeps the process alive
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

// Each protocol's exporter package is loaded only when that protocol is used.
async function traceExporterClass(c: OtlpSignalConfig) {
  return c.protocol === 'http/json'
    ? (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter
    : (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter;
}

async function logExporterClass(c: OtlpSignalConfig) {
  return c.protocol === 'http/json'
    ? (await import('@opentelemetry/exporter-logs-otlp-http')).OTLPLogExporter
    : (await import('@opentelemetry/exporter-logs-otlp-proto')).OTLPLogExporter;
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
