import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // @oclif/test captures output itself; vitest's interception would swallow it.
    disableConsoleIntercept: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // E2E tests spawn the built CLI and real hooks; 2 cores on CI.
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
