// `hooks runs --export otlp` (SPEC §9): the selected ledger records as spans and log records,
// one trace per dispatch (./model.ts), sent in batches. Loaded only when exporting.
import type { RunRecord } from '../ledger/record.js';
import type { OtlpExportConfig } from './config.js';
import { telemetryFromRecords } from './model.js';

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

export async function exportRecords(
  config: OtlpExportConfig,
  records: Iterable<RunRecord>,
  version: string,
): Promise<RecordsExportResult> {
  const telemetry = telemetryFromRecords(records);
  const { sendTelemetry } = await import('./otlp.js');
  const failures = await sendTelemetry(config, telemetry, {
    budgetMs: Number.MAX_SAFE_INTEGER,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    version,
  });
  return {
    spans: config.traces !== undefined ? telemetry.spans.length : 0,
    logs: config.logs !== undefined ? telemetry.logs.length : 0,
    warnings: config.warnings,
    failures,
  };
}
