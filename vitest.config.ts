import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // End-to-end tests spawn the bundled action against real git; give them room on a loaded machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Tags the run and fails it when a process the suite started outlives it (see the file).
    globalSetup: ['test/helpers/global-setup.ts'],
    // The teardown waits a few seconds for exiting processes and deletes the run's accounts.
    teardownTimeout: 60_000,
  },
});
