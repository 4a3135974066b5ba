import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'conformance/**/*.test.ts', 'test/**/*.test.ts'],
    // Bounds that end a hang, not measures of speed: a loaded machine may take several times a quiet one's time.
    // A test may wait for a whole check or fuzz run (test/support/cli.ts gives one 5 minutes), and then some.
    testTimeout: 6 * 60_000,
    hookTimeout: 60_000,
    // Several files wait on real time (a rate-limit window, a browser, npm): run more of them at once than
    // there are spare cores, so that the waits overlap.
    maxWorkers: 3,
  },
});
