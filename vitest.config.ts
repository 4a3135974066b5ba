import { defineConfig } from 'vitest/config';
import { longestFirst } from './test/support/longest-first.js';

/**
 * Three projects, which `npm test` runs together. `quick` runs in one process: unit tests and the CLI, the suite,
 * the fuzzer and the proxy run in process, with no browser, npm, redis-server, child process or real-time window;
 * a developer runs it after each change (`npm run test:quick`). `catalogue`, in process too, proves the suite's
 * power: every mutation caught on its rule, every legal variant passed, by check, fuzz and the proxy alike.
 * `end-to-end` holds the rest, each file for what only it can show.
 */
const CATALOGUE = [
  'test/mutations.test.ts',
  'test/variants-conformance.test.ts',
  'test/conformance-standalone.test.ts',
  'test/fuzz.test.ts',
  'test/proxy-live.test.ts',
  'test/same-verdict.test.ts',
];

const END_TO_END = [
  // The command as a child process: real signals, SIGKILL, --workers, a session without a terminal.
  'test/cli-process.test.ts',
  'test/cli-interrupts.test.ts',
  'test/stores/state-file-process.test.ts',
  // Debian's Chromium.
  'test/browser.test.ts',
  'test/dashboard.test.ts',
  'test/web-client*.test.ts',
  // npm: the package as users install it, and the peer tools they run (redocly).
  'test/docs-commands.test.ts',
  'test/package.test.ts',
  'test/openapi-peers.test.ts',
  // Debian's redis-server.
  'test/stores/redis-*.test.ts',
  'test/stores/user-resources-kept.test.ts',
  'src/stores/redis-*.test.ts',
  // Real-time windows and timeouts, waited out for real.
  'test/conformance-realtime.test.ts',
  'test/fuzz-realtime.test.ts',
  'test/check-unresponsive-targets.test.ts',
  'test/reliability/timeouts.test.ts',
];

const ALL = ['src/**/*.test.ts', 'conformance/**/*.test.ts', 'test/**/*.test.ts'];

/** The longest files, started first so that the others overlap their waits. */
const LONGEST = [
  'test/docs-commands.test.ts',
  'test/check-unresponsive-targets.test.ts',
  'test/fuzz-realtime.test.ts',
  'test/conformance-realtime.test.ts',
  'test/mutations.test.ts',
  'test/variants-conformance.test.ts',
  'test/package.test.ts',
  'test/fuzz.test.ts',
  'test/reliability/timeouts.test.ts',
  'test/proxy-live.test.ts',
  'test/same-verdict.test.ts',
];

export default defineConfig({
  test: {
    // Bounds that end a hang, not measures of speed: a loaded machine may take several times a quiet one's time.
    // A test may wait for a whole check or fuzz run (test/support/cli.ts gives one 5 minutes), and then some.
    testTimeout: 6 * 60_000,
    hookTimeout: 60_000,
    // Threads, not processes: a test file starts no process of its own.
    pool: 'threads',
    // More files at once than there are cores: many mostly wait (for a window, a browser, npm), and overlap.
    maxWorkers: 6,
    sequence: { sequencer: longestFirst(LONGEST) },
    projects: [
      // One worker runs file after file: a file's worker would otherwise cost as much as a small file's tests.
      { extends: true, test: { name: 'quick', include: ALL, exclude: [...CATALOGUE, ...END_TO_END], isolate: false } },
      { extends: true, test: { name: 'catalogue', include: CATALOGUE } },
      { extends: true, test: { name: 'end-to-end', include: END_TO_END, globalSetup: ['test/support/docs-workspace-dir.ts'] } },
    ],
  },
});
