// The seam between a dispatch and whoever watches its runs (the OpenTelemetry export today).
// Types only: importing this file loads nothing.
//
// A dispatcher that has an observer calls `beforeRun()` just before it starts a hook's process,
// adds the returned `env` to that process's environment (last, over the declaration's own env,
// as HOOKCTL_DISPATCH_DEPTH is), and calls `end(record)` with the run's record once it is built.
// Runs that start no process (skipped, dropped, refused before start) need no call: the observer
// also sees every record through the dispatch's `onRecord`.
import type { RunRecord } from '../ledger/record.js';

export interface RunObserver {
  beforeRun(): RunObservation;
}

export interface RunObservation {
  /** Variables for the hook's process: TRACEPARENT (and TRACESTATE) of the run's span. */
  readonly env: Readonly<Record<string, string>>;
  end(record: RunRecord): void;
}
