// The exit code of a claude fire's verdict (claude.md §5.6 step 7). Apart from dispatch/ on
// purpose: the dialect object answers it (Dialect.exitCode) and so holds it from start-up, and a
// read command loads no dispatch code (test/e2e/import-graph.test.ts).

/** claude.md §5.6 step 7: 0 pass/allow/accept, 1 deny/block/stop/decline/cancel, 4 ask/defer. */
export function verdictExitCode(verdict: string): number {
  if (verdict === 'ask' || verdict === 'defer') return 4;
  if (['deny', 'block', 'stop', 'decline', 'cancel'].includes(verdict)) return 1;
  return 0;
}
