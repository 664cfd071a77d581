// `hooks runs --export otlp` (SPEC §9): the selected ledger records as spans and log records,
// one trace per dispatch (./model.ts), sent in batches. Loaded only when exporting.
import type { RunRecord } from '../ledger/record.js';
import type { OtlpExportConfig } from './config.js';
import { StreamedRecordsTelemetry, type Telemetry } from './model.js';

/** A user who asked for an export waits longer than a fire does, but not forever on one request. */
export const REQUEST_TIMEOUT_MS = 10_000;

export interface RecordsExportResult {
  spans: number;
  logs: number;
  /** Problems with the variables (nothing was lost because of them). */
  warnings: string[];
  /** What could not be sent. */
  failures: string[];
}

export interface StreamedExportResult extends RecordsExportResult {
  runs: number;
  dispatches: number;
}

/**
 * The export of records read twice from their logs (`source` starts a new read each call), sent
 * as they are read: memory holds a slice of log and a batch, not the export (issue 24).
 */
export async function exportRecordStream(
  config: OtlpExportConfig,
  source: () => Iterable<RunRecord[]>,
  version: string,
): Promise<StreamedExportResult> {
  const model = new StreamedRecordsTelemetry();
  for (const part of source()) for (const r of part) model.note(r);
  const totals = { spans: model.runs + model.dispatchCount, logs: model.runs };
  const { TelemetryStream } = await import('./otlp.js');
  const stream = new TelemetryStream(
    config,
    { budgetMs: Number.MAX_SAFE_INTEGER, requestTimeoutMs: REQUEST_TIMEOUT_MS, version },
    totals,
  );
  for (const part of source()) {
    const t: Telemetry = { spans: [], logs: [] };
    for (const r of part) model.emit(r, t);
    await stream.add(t);
  }
  const failures = await stream.finish();
  return {
    runs: model.runs,
    dispatches: model.dispatchCount,
    spans: config.traces !== undefined ? totals.spans : 0,
    logs: config.logs !== undefined ? totals.logs : 0,
    warnings: config.warnings,
    failures,
  };
}
