import { availableParallelism } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { limiter } from './support/limiter.js';
import type { Mutation } from './support/mutating-proxy.js';
import { MUTATIONS } from './support/mutations.js';
import { describeRun, runSuiteBehind } from './support/suite-run.js';
import { VARIATIONS } from './support/variations.js';

/**
 * The proof that the suite catches broken servers: the suite, run in this process by the runner `game-service
 * check` calls, against the mock behind a proxy that breaks one rule must fail that rule's check; behind a proxy
 * that makes a legal choice, the whole suite must pass. A broken server is checked by the checks of the rule it
 * breaks (`--only RULE`: a check file alone gets the verdicts of the whole run, conformance-standalone.test.ts),
 * or by the whole run where the verdict needs it: no other rule may fail, or the traffic of other rules' checks
 * shows the departure.
 */

/** Runs at once: each is mostly CPU, shared between this thread (the proxy and the mock) and the run's checks' thread. */
const inSlot = limiter(Math.max(1, Math.min(4, availableParallelism() - 1)));
/** A test waits for a free slot, then runs: room for every run ahead of it on a loaded machine. */
const TEST_TIMEOUT_MS = 10 * 60_000;

const results: { name: string; expected: string; outcome: string; ms: number }[] = [];
const ORDER = [...MUTATIONS, ...VARIATIONS].map((behaviour) => behaviour.name);

/** Departures that break one sentence only, each to be reported once: on its rule, and on no other. */
const REPORTED_ONCE = new Set([
  'null-body-500',
  'unreadable-body-500',
  'non-string-email-500',
  'numeric-otp-500',
  'register-without-email-accepted',
  'verify-without-otp-accepted',
  '429-body-without-error',
  'register-message-empty',
  'empty-error-on-404',
  'disposable-domain-by-letter-case',
  'challenge-token-refused',
  'reset-a-quarter-hour-ahead',
]);

/**
 * Departures that only the traffic of other rules' checks shows: a refusal's headers, another bucket's 429, an auth
 * bucket given back by the sign-ins of other checks, or counted over the minutes other checks wait.
 */
const SEEN_IN_THE_WHOLE_RUN = new Set([
  'no-ratelimit-headers-on-refusals',
  'wrong-attempt-429-without-retry-after',
  'auth-bucket-given-back-on-sign-in',
  'auth-window-two-minutes',
]);

/** The checks a mutation is run with: those of its rule (titles start with the rule id), or all. */
const checksFor = ({ name, breaks }: Mutation) => (REPORTED_ONCE.has(name) || SEEN_IN_THE_WHOLE_RUN.has(name) ? {} : { only: `${breaks} «` });

/** A failed check is about `rule` when its title names the rule id (titles start with it). */
const namesRule = (title: string, rule: string) => title.split(' ').includes(rule);

afterAll(() => {
  results.sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name));
  const width = Math.max(...results.map((result) => result.name.length));
  console.log(
    [
      'Mutation testing of the suite:',
      ...results.map((result) => `  ${result.name.padEnd(width)}  ${result.expected.padEnd(14)} ${result.outcome} (${result.ms} ms)`),
    ].join('\n'),
  );
});

describe('the suite fails each broken server, on the rule it breaks', () => {
  it.concurrent.each(MUTATIONS.map((mutation) => [`${mutation.name} (${mutation.breaks}): ${mutation.does}`, mutation] as const))(
    '%s',
    async (_title, mutation) => {
      const started = Date.now();
      const checks = checksFor(mutation);
      const run = await inSlot(() => runSuiteBehind(mutation, checks));
      const code = run.result.exitCode;
      const onRule = run.failed.filter((title) => namesRule(title, mutation.breaks));
      const others = run.failed.filter((title) => !namesRule(title, mutation.breaks)).map((title) => title.split(' ')[0]);
      results.push({
        name: mutation.name,
        expected: mutation.breaks,
        outcome:
          onRule.length > 0
            ? `caught${others.length > 0 ? ` (also: ${[...new Set(others)].join(', ')})` : ''}${checks.only === undefined ? ' by the whole run' : ''}`
            : `NOT caught: exit ${code}, failed: ${[...new Set(others)].join(', ') || 'none'}`,
        ms: Date.now() - started,
      });
      const failedList = run.failed.length === 0 ? '  (none)' : run.failed.map((title) => `  - ${title}`).join('\n');
      expect(code, `the suite must fail (exit 1) behind ${mutation.name}\n${describeRun(run)}`).toBe(1);
      expect(onRule.length, `no failed check names ${mutation.breaks} (${run.replay}); failed checks:\n${failedList}\n${describeRun(run)}`).toBeGreaterThan(0);
      if (REPORTED_ONCE.has(mutation.name)) expect(others, `reported on other rules too (${run.replay}):\n${failedList}`).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('the suite passes each legal variation', () => {
  it.concurrent.each(VARIATIONS.map((variation) => [`${variation.name}: ${variation.does}`, variation] as const))(
    '%s',
    async (_title, variation) => {
      const started = Date.now();
      const run = await inSlot(() => runSuiteBehind(variation));
      const { exitCode, passed, failed, skipped } = run.result;
      results.push({
        name: variation.name,
        expected: 'pass',
        outcome:
          exitCode === 0
            ? `passed (${passed} passed, ${failed} failed, ${skipped} skipped)`
            : `FAILED: exit ${exitCode}, failed: ${run.failed.map((title) => title.split(' ')[0]).join(', ') || 'none'}`,
        ms: Date.now() - started,
      });
      const failedList = run.failed.map((title) => `  - ${title}`).join('\n');
      expect(exitCode, `the suite must pass (exit 0) behind ${variation.name}; failed checks:\n${failedList}\n${describeRun(run)}`).toBe(0);
      expect(passed).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );
});
