import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every test cleans up its temp folders; the guard fails the run when one is left behind.
    globalSetup: ['./test/support/temp-guard.ts'],
    setupFiles: ['./test/support/cleanup.ts'],
    // @oclif/test captures output itself; vitest's interception would swallow it.
    disableConsoleIntercept: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // E2E tests spawn the built CLI and real hooks; 2 cores on CI.
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
