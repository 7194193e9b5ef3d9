import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Forks, not threads: the SQLite addon and the child processes of e2e tests behave best in a process of their own.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The skip summary prints last: which tests did not run, and why.
    reporters: ['default', './test/reporters/skip-summary.ts'],
  },
});
