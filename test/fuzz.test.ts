import { afterEach, describe, expect, it } from 'vitest';
import { runFuzz, type FuzzResult } from '../conformance/fuzz/run-fuzz.js';
import type { RuleId } from '../conformance/rules/index.js';
import { RATE_LIMITS } from '../src/spec/limits.js';
import { startMutatingProxy, type MutatingProxy, type ProxyBehaviour } from './support/mutating-proxy.js';
import { MUTATIONS } from './support/mutations.js';
import { VARIATIONS } from './support/variations.js';
import { fuzzSeed } from './support/property.js';

/**
 * The proof that the fuzzer works: against the mock behind a proxy that breaks one rate-limit rule it must
 * find a disagreement, shrink it to a few requests and replay it from the printed seed and path; against
 * the unaltered mock and behind every legal variation, it must find none.
 */

const AUTH_LIMIT = RATE_LIMITS.auth.limit;

/** Each mutation the fuzzer must catch, the rules its findings may name, and the longest shrunk sequence allowed. */
const CAUGHT: readonly { name: string; rules: readonly RuleId[]; maxSteps: number }[] = [
  // A verification's success shows in the next auth answer's Remaining; a longer window in any answer's Reset.
  { name: 'auth-bucket-given-back-on-sign-in', rules: ['RL-REMAINING', 'RL-WINDOW'], maxSteps: AUTH_LIMIT },
  { name: 'auth-window-two-minutes', rules: ['RL-RESET', 'RL-WINDOW'], maxSteps: AUTH_LIMIT + 1 },
  // Limiters as real ones are written: a new window that still counts the last one, an end that moves, a bucket per network.
  { name: 'read-window-sliding-estimate', rules: ['RL-REMAINING', 'RL-WINDOW'], maxSteps: 3 },
  { name: 'read-window-end-moves', rules: ['RL-WINDOW', 'RL-RESET'], maxSteps: 3 },
  { name: 'auth-bucket-per-network', rules: ['RL-REMAINING', 'RL-AUTH-IP', 'RL-WINDOW'], maxSteps: 3 },
  { name: 'ratelimit-limit-plus-one', rules: ['RL-LIMIT'], maxSteps: 1 },
  { name: '429-one-request-early', rules: ['RL-WINDOW'], maxSteps: AUTH_LIMIT },
  { name: 'remaining-never-decreases', rules: ['RL-REMAINING'], maxSteps: 1 },
  { name: 'reset-as-date', rules: ['RL-RESET'], maxSteps: 1 },
  { name: 'reset-unit-changes-within-a-bucket', rules: ['RL-RESET'], maxSteps: 2 },
  { name: 'reset-a-quarter-hour-ahead', rules: ['RL-WINDOW'], maxSteps: 1 },
  { name: 'shared-read-bucket', rules: ['RL-REMAINING'], maxSteps: 2 },
  // Two ways to show it: a game-origin request missing from the next Remaining (2 requests), or a game-origin
  // request let through a spent bucket (limit + 1); shrinking keeps whichever the first failure showed.
  { name: 'game-origin-auth-not-counted', rules: ['RL-REMAINING', 'RL-AUTH-IP', 'RL-WINDOW'], maxSteps: AUTH_LIMIT + 1 },
  { name: 'window-never-resets', rules: ['RL-WINDOW', 'RL-RESET', 'RL-429'], maxSteps: AUTH_LIMIT + 3 },
  { name: 'retry-after-an-hour', rules: ['RL-429'], maxSteps: AUTH_LIMIT + 1 },
  { name: 'reads-spend-public-bucket', rules: ['RL-REMAINING'], maxSteps: 3 },
  { name: 'read-bucket-per-token', rules: ['RL-REMAINING'], maxSteps: 2 },
  // A look-alike origin let through as the game origin: its response lacks the external caller's headers, or the next Remaining shows it uncounted.
  { name: 'game-origin-by-prefix', rules: ['RL-EXEMPT', 'RL-LIMIT', 'RL-REMAINING', 'RL-RESET', 'RL-WINDOW'], maxSteps: 2 },
];

const FUZZ_BOUNDS = { numRuns: 100, maxCommands: 50, forwardedFor: true } as const;

let proxy: MutatingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/**
 * Sequences a legal variation is fuzzed with: enough to meet every limit and its 429 (the test asserts it) across some
 * thousand commands, where a broken server above needs its hundred to be found and shrunk within its bound.
 */
const LEGAL_RUNS = 40;

async function fuzzBehind(behaviour: ProxyBehaviour | undefined, extra: { seed: number; replay?: string; numRuns?: number }): Promise<FuzzResult> {
  await proxy?.close();
  proxy = await startMutatingProxy(behaviour);
  const { clientIpHeader, shipPayload } = behaviour?.target ?? {};
  const addressing = clientIpHeader === undefined ? {} : { forwardedFor: false, clientIpHeader };
  return runFuzz({ baseUrl: proxy.url, ...FUZZ_BOUNDS, ...addressing, ...(shipPayload === undefined ? {} : { shipPayload }), ...extra });
}

describe('game-service fuzz finds and shrinks broken rate limits', () => {
  for (const caught of CAUGHT) {
    const mutation = MUTATIONS.find((candidate) => candidate.name === caught.name)!;
    it(`${caught.name}: ${mutation.does}`, async () => {
      const seed = fuzzSeed(`fuzz ${caught.name}`);
      const found = await fuzzBehind(mutation, { seed });
      expect(found.error).toBeUndefined();
      expect(found.exitCode).toBe(1);
      const failure = found.failure!;
      const requests = failure.steps.filter((step) => step.exchange !== undefined);
      expect(requests.length, failure.report).toBeLessThanOrEqual(caught.maxSteps);
      const rules = failure.steps.at(-1)!.findings.map((finding) => finding.rule);
      expect(
        rules.some((rule) => caught.rules.includes(rule)),
        failure.report,
      ).toBe(true);

      const replayed = await fuzzBehind(mutation, { seed, replay: failure.replay });
      expect(replayed.exitCode).toBe(1);
      expect(replayed.failure!.steps.map((step) => step.description.replace(/\S+@\S+/g, 'EMAIL').replace(/198\.18\.\d+\.\d+/g, 'IP'))).toEqual(
        failure.steps.map((step) => step.description.replace(/\S+@\S+/g, 'EMAIL').replace(/198\.18\.\d+\.\d+/g, 'IP')),
      );
    });
  }
});

describe('game-service fuzz accepts what the spec leaves open', () => {
  for (const variation of [undefined, ...VARIATIONS]) {
    const name = variation?.name ?? 'the mock without a proxy';
    it(`${name}: no disagreement`, async () => {
      const seed = fuzzSeed(`fuzz ${name}`);
      const result = await fuzzBehind(variation, { seed, numRuns: LEGAL_RUNS });
      expect(result.failure?.report ?? result.error).toBeUndefined();
      expect(result.exitCode).toBe(0);
      expect(result.limited, 'sequences reached the limits, not only counted them').toBeGreaterThan(0);
    });
  }
});
