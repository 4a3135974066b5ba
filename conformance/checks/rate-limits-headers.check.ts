import { describe, it, type TestContext } from 'vitest';
import { RATE_LIMITS, type RateLimitCategory } from '../../src/spec/limits.js';
import { observe, requireThat } from './assertions.js';
import { expectBucketCount, expectRule, sentBySuite } from './expect-rule.js';
import type { Exchange } from '../common/exchange.js';
import { fixture } from '../fixtures/fixture.js';
import { authIsScarce } from '../fixtures/accounts.js';
import { uniqueEmail } from '../fixtures/players.js';
import { createShipCall } from '../fixtures/gameplay.js';
import { describeAlignment, describeResetUnit, inferAlignment, inferResetUnit, resetProblem, type WindowSample } from '../rules/model/index.js';
import { rule } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';
import type { Call } from '../target/call.js';
import {
  countdown,
  expectRemainingInRange,
  oneCountedSince,
  remainingOf,
  requirePlayers,
  resetOf,
  resetSamples,
  sendTimed,
  sharedSignIn,
  startFreshWindows,
  type Timed,
} from './rate-limits-support.js';

// "Responses to external callers carry these headers: X-RateLimit-Limit (integer, bucket size),
//  X-RateLimit-Remaining (integer, requests left), X-RateLimit-Reset (integer, a timestamp-like value, unit unspecified)."

/** A client of its own that signed in for real where it must: one register and one verify response, and a token. */
const signedInClient = fixture(async (suite) => {
  const identity = suite.target.identities.fresh();
  return { identity, ...(await sharedSignIn(suite, identity)) };
});

/**
 * Answers of one client's public reads, and of a player's reads where the run signs in, by category: the Reset values
 * RL-RESET and RL-WINDOW read (each category in a unit of its own: nothing makes the unit one per server).
 */
const resetResponses = fixture(async (suite): Promise<Map<RateLimitCategory, Timed[]>> => {
  await startFreshWindows(suite);
  const identity = suite.target.identities.fresh();
  const publicReads: Timed[] = [];
  for (let index = 0; index < 3; index++) publicReads.push(await sendTimed(suite, { method: 'GET', path: '/health', identity }));
  const byCategory = new Map<RateLimitCategory, Timed[]>([['public', publicReads]]);
  if (suite.otp !== null || suite.config.capabilities?.players === true) {
    const client = await signedInClient(suite);
    if (client.player !== undefined) {
      const reads: Timed[] = [];
      for (let index = 0; index < 2; index++)
        reads.push(await sendTimed(suite, { method: 'GET', path: '/api/player', token: client.player.token, identity: client.identity }));
      byCategory.set('read', reads);
    }
  }
  return byCategory;
});

async function tokenOrSkip(suite: Suite, context: TestContext) {
  requirePlayers(suite, context);
  const client = await signedInClient(suite);
  requireThat(context, client.player !== undefined, 'needs a signed-in player: pass --otp-source');
  return { identity: client.identity, token: client.player!.token };
}

function expectLimit(suite: Suite, exchange: Exchange, category: RateLimitCategory): void {
  const { limit } = RATE_LIMITS[category];
  expectRule(
    'RL-LIMIT',
    exchange,
    sentBySuite(suite, exchange),
    `X-RateLimit-Limit: ${limit} (the ${category} bucket size) on a response to an external caller`,
  );
}

/**
 * RL-RESET over one category's answers: each Reset an integer, all in one unit that puts the window's end within the
 * next minute; the unit and where the category's windows start are reported.
 */
async function expectResetUnit(suite: Suite, context: TestContext, category: RateLimitCategory, responses: readonly Timed[]): Promise<void> {
  for (const { exchange } of responses) expectRule('RL-RESET', exchange, sentBySuite(suite, exchange), 'X-RateLimit-Reset as an integer');
  const samples = resetSamples(responses);
  const inference = inferResetUnit(samples);
  const broken = resetProblem(samples, inference);
  if (broken?.rule === 'RL-WINDOW') {
    await observe(context, `${category}: X-RateLimit-Reset is left to RL-WINDOW, which expects ${broken.problem}`);
    return;
  }
  // An unreadable value fails its own response; values in no one unit, the last, where they stopped agreeing.
  if (broken !== undefined) {
    const exchange = responses.at(inference.kind === 'unreadable' ? inference.index : -1)!.exchange;
    expectRule('RL-RESET', exchange, { ...sentBySuite(suite, exchange), resetSamples: samples }, `the ${category} responses' X-RateLimit-Reset`);
  }
  if (inference.kind === 'ambiguous')
    await observe(context, `${category}: X-RateLimit-Reset fits several units (${inference.units.join(', ')}); the server's clock is odd`);
  if (inference.kind !== 'unit') return;
  await observe(context, `${category}: X-RateLimit-Reset reads as ${describeResetUnit(inference.unit)}`);

  // Which windows: those that start at a key's first request, or clock minutes. A response with
  // Remaining = Limit − 1 answered the request that opened its window (a first hit).
  const windows: WindowSample[] = responses.map((timed, index) => ({
    at: timed.at,
    windowEnd: inference.readings[index]!.windowEnd,
    firstHit: remainingOf(timed.exchange) === RATE_LIMITS[category].limit - 1,
  }));
  const alignment = inferAlignment(windows);
  if (alignment.kind === 'known') await observe(context, `${category} windows: ${describeAlignment(alignment.alignment)}`);
  else if (alignment.kind === 'neither')
    await observe(context, `${category} windows are neither aligned to clock minutes nor 60 s from the first request (another window scheme)`);
  else await observe(context, `${category} window alignment: could not tell (${alignment.kind})`);
}

export function rateLimitsHeadersChecks(suite: Suite): void {
  describe('rate-limit headers', () => {
    it(rule('RL-LIMIT', 'public: GET /health from an external caller names the bucket size, 60'), async () => {
      const exchange = await suite.target.send({ method: 'GET', path: '/health', identity: suite.target.identities.fresh() });
      expectLimit(suite, exchange, 'public');
    });

    it(rule('RL-LIMIT', 'auth: register and verify-email from an external caller name the bucket size, 5'), async () => {
      const { register, verify } = await signedInClient(suite);
      expectLimit(suite, register, 'auth');
      expectLimit(suite, verify, 'auth');
    });

    it(rule('RL-LIMIT', 'read: GET /api/player with a token names the bucket size, 60'), async (context) => {
      const { identity, token } = await tokenOrSkip(suite, context);
      expectLimit(suite, await suite.target.send({ method: 'GET', path: '/api/player', token, identity }), 'read');
    });

    it(rule('RL-LIMIT', 'gameplay: POST /api/player/ship with a token names the bucket size, 60'), async (context) => {
      const { identity, token } = await tokenOrSkip(suite, context);
      // The ship payload is not shown: whatever the answer (a ship, or a 4xx for the payload), it is a gameplay response.
      expectLimit(suite, await suite.target.send(createShipCall(suite, token, identity)), 'gameplay');
    });

    /** Consecutive requests of one client: each Remaining one less than the one before (from whatever the first shows), or Limit − 1 in a new window. */
    async function expectCountdown(category: RateLimitCategory, call: () => Call, count: number): Promise<void> {
      await startFreshWindows(suite);
      const { limit } = RATE_LIMITS[category];
      for await (const { current, previousRemaining, remaining, moved, step } of countdown(limit, () => sendTimed(suite, call()), count)) {
        expectRemainingInRange(suite, current.exchange, limit);
        if (step !== undefined && previousRemaining !== undefined)
          expectBucketCount(suite, current.exchange, {
            rule: 'RL-REMAINING',
            since: oneCountedSince(limit, previousRemaining, moved),
            why: moved ? 'Limit − 1 in a new window' : `one less than the ${previousRemaining} of the response before, in its window`,
          });
        // Spent: what follows is RL-429's (a first response at 0 is still followed by one, judged as a step).
        if (step !== undefined && remaining === 0) return;
      }
    }

    it(rule('RL-REMAINING', 'public: consecutive GET /health of one client count down by exactly one'), async () => {
      const identity = suite.target.identities.fresh();
      await expectCountdown('public', () => ({ method: 'GET', path: '/health', identity }), 5);
    });

    it(rule('RL-REMAINING', 'read: consecutive GET /api/player of one player count down by exactly one'), async (context) => {
      const { identity, token } = await tokenOrSkip(suite, context);
      await expectCountdown('read', () => ({ method: 'GET', path: '/api/player', token, identity }), 5);
    });

    it(
      rule('RL-REMAINING', 'auth: consecutive accepted registrations of one client count down by exactly one (a success is counted as any request)'),
      async (context) => {
        requireThat(context, !authIsScarce(suite), 'one client address paces the run: no auth request is spent on a countdown');
        const identity = suite.target.identities.fresh();
        await expectCountdown('auth', () => ({ method: 'POST', path: '/api/auth/register', json: { email: uniqueEmail(suite, 'countdown') }, identity }), 3);
      },
    );

    it(
      rule(
        'RL-RESET',
        "an integer whose unit (epoch s, epoch ms or seconds remaining) puts the window's end within the next minute, the same unit on every response of a bucket category",
      ),
      async (context) => {
        for (const [category, responses] of await resetResponses(suite)) await expectResetUnit(suite, context, category, responses);
      },
    );

    it(rule('RL-WINDOW', 'the window X-RateLimit-Reset names ends within the minute the Limits table gives, in whatever unit it is read'), async () => {
      const responses = [...(await resetResponses(suite)).values()].flat();
      // Each response alone: a longer window is RL-WINDOW's whatever the others say (a value unreadable otherwise is RL-RESET's).
      for (const { exchange, at } of responses)
        if (resetOf(exchange) !== undefined)
          expectRule('RL-WINDOW', exchange, { ...sentBySuite(suite, exchange), serverTime: at, shaped: true }, 'a counted response with X-RateLimit-Reset');
    });
  });
}
