// The OpenTelemetry export of one `hooks fire` (SPEC §9). Loaded only when exporting (see
// ../telemetry/config.ts for when that is). The dispatch span is opened when the fire starts,
// under the invoking TRACEPARENT when there is one; each run's span id is made just before its
// hook starts, so the hook's TRACEPARENT names its own run span; everything is sent once the
// dispatch has ended, within a fixed budget.
import { parseTraceParent } from '@opentelemetry/core';
import type { RunRecord } from '../ledger/record.js';
import type { OtlpExportConfig } from './config.js';
import {
  dispatchTelemetry,
  randomSpanId,
  randomTraceId,
  toolCallIdOf,
  type DispatchFacts,
  type DispatchTrace,
  type OpenedRun,
} from './model.js';
import type { RunObservation, RunObserver } from './observer.js';

/**
 * The whole export of a dispatch: loading the OpenTelemetry packages, both signals, every batch
 * and retry. SPEC §9 allows 2 s in all; the rest is margin for a loaded machine.
 */
export const EXPORT_BUDGET_MS = 1500;

export interface FireExport extends RunObserver {
  /** Every record of the dispatch, as it is recorded. */
  onRecord(record: RunRecord): void;
  /** Sends the dispatch; resolves with warnings for stderr, never rejects. */
  finish(outcome: { verdict: string; failed: boolean }): Promise<string[]>;
}

export interface FireExportOptions {
  config: OtlpExportConfig;
  /** The invoking environment: TRACEPARENT and TRACESTATE are read from it. */
  env: NodeJS.ProcessEnv;
  facts: Omit<DispatchFacts, 'verdict' | 'failed' | 'toolCallId'>;
  /** The payload as fired: only its tool call id is read. */
  payload: Record<string, unknown>;
  /** hookctl's version, for the instrumentation scope. */
  version: string;
  now?: () => number;
}

export function startFireExport(opts: FireExportOptions): FireExport {
  const now = opts.now ?? Date.now;
  const warnings = [...opts.config.warnings];
  const parent = opts.env.TRACEPARENT ? parseTraceParent(opts.env.TRACEPARENT) : null;
  if (opts.env.TRACEPARENT && parent === null) {
    warnings.push('TRACEPARENT is not a valid W3C traceparent; the dispatch starts a new trace');
  }
  const traceState = parent !== null ? opts.env.TRACESTATE?.trim() || undefined : undefined;
  const trace: DispatchTrace = {
    traceId: parent?.traceId ?? randomTraceId(),
    spanId: randomSpanId(),
    ...(parent !== null ? { parentSpanId: parent.spanId } : {}),
    // An unsampled parent is honoured: its trace is not recorded, its flags are passed on.
    traceFlags: parent !== null ? parent.traceFlags & 1 : 1,
    ...(traceState !== undefined ? { traceState } : {}),
    startMs: now(),
    endMs: 0,
  };
  const opened = new Map<string, OpenedRun>();
  const records: RunRecord[] = [];
  const flags = trace.traceFlags ? '01' : '00';
  return {
    beforeRun(): RunObservation {
      const run: OpenedRun = { spanId: randomSpanId(), startMs: now() };
      const env: Record<string, string> = { TRACEPARENT: `00-${trace.traceId}-${run.spanId}-${flags}` };
      if (traceState !== undefined) env.TRACESTATE = traceState;
      return {
        env,
        end(record) {
          run.endMs = now();
          opened.set(record.run_id, run);
        },
      };
    },
    onRecord(record) {
      records.push(record);
    },
    async finish({ verdict, failed }) {
      trace.endMs = now();
      const toolCallId = toolCallIdOf(opts.payload);
      const facts: DispatchFacts = {
        ...opts.facts,
        verdict,
        failed,
        ...(toolCallId !== undefined ? { toolCallId } : {}),
      };
      const telemetry = dispatchTelemetry(trace, facts, records, opened);
      if (!trace.traceFlags) telemetry.spans = []; // not sampled upstream: no spans, the logs still go
      try {
        const started = now();
        const { sendTelemetry } = await import('./otlp.js'); // the OpenTelemetry packages: inside the budget
        const budgetMs = Math.max(1, EXPORT_BUDGET_MS - (now() - started));
        warnings.push(...(await sendTelemetry(opts.config, telemetry, { budgetMs, version: opts.version })));
      } catch (err) {
        warnings.push(`OpenTelemetry export failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      return warnings;
    },
  };
}
