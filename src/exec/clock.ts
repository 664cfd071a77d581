// Monotonic milliseconds for run durations. process.hrtime is part of every process; the
// `performance` global and node:perf_hooks load about ten of Node's modules on first use
// (3–4 ms of a start-up, docs/PERFORMANCE.md).
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
