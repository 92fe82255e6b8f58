import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // End-to-end tests spawn the bundled action against real git; give them room on a loaded machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
