import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run side by side, one more worker than the machine has cores: an end-to-end test spends
 * much of its time waiting on the processes it started (the bundled action, git), and the spare
 * worker fills that wait. Files are independent: each makes its own temp dirs, servers on free
 * ports and names with the run's tag (test/helpers/unique-names.ts). On 2 cores, 3 workers finished
 * a CPU-bound e2e subset in 164 s against 196 s for one worker at a time.
 */
const workers = os.availableParallelism() + 1;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: workers,
    // End-to-end tests spawn the bundled action against real git; give them room on a loaded machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Tags the run and fails it when a process the suite started outlives it (see the file).
    globalSetup: ['test/helpers/global-setup.ts'],
    // The teardown waits a few seconds for exiting processes and deletes the run's accounts.
    teardownTimeout: 60_000,
  },
});
