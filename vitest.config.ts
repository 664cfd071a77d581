import { defineConfig } from 'vitest/config';

// Files whose assertions bound wall time (a timeout plus 1 s, a drain of 10 s plus its slack, a
// load that must not be quadratic) or race processes on purpose (the ledger's torn-line test):
// they run one at a time, after the rest, so that the suite's own parallel load cannot push
// them over.
export const TIMED = [
  'test/unit/subprocess.test.ts',
  'test/unit/ledger.test.ts',
  'test/unit/compozy-load.test.ts',
  'test/unit/ordering.test.ts',
  'test/unit/cli-table.test.ts',
  'test/unit/lookpath.test.ts',
  'test/unit/async-pool.test.ts',
  'test/e2e/fire-executor.test.ts',
  'test/e2e/fire-async.test.ts',
  'test/e2e/otel-export.test.ts',
  'test/e2e/otel-export-bound.test.ts',
  'test/reliability/faults.test.ts',
];

// Files that change process-wide state in their own process (environment variables, spies on
// process.stdout) to run commands in-process: each gets a process of its own.
// answer-cache.test.ts records runs in-process: it watches node:fs, process.env and the clock.
export const ISOLATED = ['test/unit/fake-dialect.test.ts', 'test/unit/answer-cache.test.ts'];

// Workers: vitest's default for `vitest run` is one less than the cores, so on a 2-core machine
// every file ran alone, one after another (225 s in issue 18, while the processes used about
// 100 s of CPU): most tests wait on the CLI processes and hooks they spawn. Three workers keep
// both cores busy. HOOKCTL_TEST_WORKERS overrides.
const workers = Number(process.env.HOOKCTL_TEST_WORKERS) || 3;

const shared = {
  // Every test cleans up its temp folders; the guard fails the run when one is left behind.
  setupFiles: ['./test/support/cleanup.ts'],
  // @oclif/test captures output itself; vitest's interception would swallow it.
  disableConsoleIntercept: true,
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // E2E tests spawn the built CLI and real hooks.
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    globalSetup: ['./test/support/temp-guard.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    maxWorkers: workers,
    projects: [
      {
        test: {
          ...shared,
          name: 'parallel',
          include: ['test/**/*.test.ts'],
          exclude: [...TIMED, ...ISOLATED],
          maxWorkers: workers,
          // One process per worker for all its files, not one per file: half the CPU of the
          // unit files here (no test patches globals, mocks modules or changes the working folder;
          // test/unit/no-shared-state.test.ts keeps it so).
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'isolated',
          include: ISOLATED,
          maxWorkers: workers,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'timed',
          include: TIMED,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
