import { describe, it, type TestContext } from 'vitest';
import type { RateLimitCategory } from '../../src/spec/limits.js';
import { observe, requireThat } from './assertions.js';
import { expectBucketCount, expectRule, sentBySuite } from './expect-rule.js';
import { fixture } from '../fixtures/fixture.js';
import { lookAlikeOrigins } from '../target/look-alike-origins.js';
import { createShipCall } from '../fixtures/gameplay.js';
import type { Identity } from '../target/identities.js';
import { RateLimitModel, type Caller } from '../rules/model/index.js';
import { rule } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';
import type { Call } from '../target/call.js';
import {
  hasRateLimitHeaders,
  remainingOf,
  requirePlayers,
  resetUnitOf,
  sendTimed,
  sharedPlayerOn,
  startFreshWindows,
  windowMoved,
  type Timed,
} from './rate-limits-support.js';

// "Requests from the official game client origins and other configured game origins are not counted
//  against the gameplay, authenticated-read or public buckets."

/** External and game-origin requests interleaved: only the external ones may move the external Remaining. */
const PATTERN = ['external', 'game', 'game', 'external', 'game', 'external'] as const;

/** One client address and one player for the three categories (a real sign-in spends that address's auth budget only). */
const exemptClient = fixture(async (suite) => {
  const identity = suite.target.identities.fresh();
  return { identity, player: suite.otp !== null || suite.config.capabilities?.players === true ? await sharedPlayerOn(suite, identity) : undefined };
});

async function expectExempt(
  suite: Suite,
  context: TestContext,
  category: RateLimitCategory,
  call: (identity: Identity, token: string | undefined) => Call,
): Promise<void> {
  const { gameOrigin } = suite.config;
  requireThat(context, gameOrigin !== null, 'no game origin: pass --game-origin');
  const { identity, player } = await exemptClient(suite);
  await startFreshWindows(suite);
  const model = new RateLimitModel();
  const external: Timed[] = [];
  const game: Timed[] = [];
  let gameSince = 0;
  for (const kind of PATTERN) {
    const caller: Caller = { ip: identity.label, playerId: player?.email, gameOrigin: kind === 'game' };
    const request = call(identity, player?.token);
    const timed = await sendTimed(suite, kind === 'game' ? { ...request, origin: gameOrigin! } : request);
    const expected = model.record({ method: request.method, path: request.path, caller, atMs: timed.at.toMs });
    if (kind === 'game') {
      game.push(timed);
      gameSince++;
      expectBucketCount(suite, timed.exchange, { rule: 'RL-EXEMPT', spent: false, why: `a game-origin ${category} request is not counted` });
      continue;
    }
    const remaining = remainingOf(timed.exchange);
    expectRule('RL-REMAINING', timed.exchange, sentBySuite(suite, timed.exchange), 'X-RateLimit-Remaining on a response to an external caller');
    const previous = external.at(-1);
    const between = gameSince;
    gameSince = 0;
    external.push(timed);
    if (previous === undefined || windowMoved(resetUnitOf(external), previous, timed)) {
      model.sync(category, caller, { remaining: remaining!, atMs: timed.at.toMs });
      continue;
    }
    const shownBefore = remainingOf(previous.exchange)!;
    // The model counts the external requests alone: one since the one before, whatever came between.
    expectBucketCount(suite, timed.exchange, {
      rule: 'RL-EXEMPT',
      since: { remaining: shownBefore, counted: shownBefore - expected.remaining! },
      why: `one less than the ${shownBefore} of the external request before, the ${between} game-origin requests in between not counted`,
    });
  }
  const withHeaders = game.filter(({ exchange }) => hasRateLimitHeaders(exchange));
  const shown = withHeaders.map(({ exchange }) => remainingOf(exchange)).join(', ');
  await observe(
    context,
    withHeaders.length === 0
      ? `game-origin ${category} responses carry no X-RateLimit-* headers`
      : `game-origin ${category} responses ${withHeaders.length === game.length ? '' : 'sometimes '}carry X-RateLimit-* headers (Remaining ${shown})`,
  );
}

/** External GET /health, then one from each look-alike origin, then external again: the look-alikes are counted. */
async function expectLookAlikesCounted(suite: Suite, context: TestContext): Promise<void> {
  const { gameOrigin } = suite.config;
  requireThat(context, gameOrigin !== null, 'no game origin: pass --game-origin');
  const identity = suite.target.identities.fresh();
  await startFreshWindows(suite);
  const health = (origin?: string) => sendTimed(suite, { method: 'GET', path: '/health', identity, ...(origin === undefined ? {} : { origin }) });
  const first = await health();
  const lookAlikes = lookAlikeOrigins(gameOrigin!);
  for (const origin of lookAlikes) await health(origin);
  const last = await health();
  const before = remainingOf(first.exchange);
  expectRule('RL-REMAINING', first.exchange, sentBySuite(suite, first.exchange), 'X-RateLimit-Remaining on a response to an external caller');
  requireThat(context, !windowMoved(resetUnitOf([first, last]), first, last), 'a window ended between the first and the last request: nothing to compare');
  expectBucketCount(suite, last.exchange, {
    rule: 'RL-EXEMPT',
    since: { remaining: before!, counted: 1 + lookAlikes.length },
    why: `the ${lookAlikes.length} requests from ${lookAlikes.join(', ')}, none of them the game origin ${gameOrigin}, counted like any external caller's`,
  });
}

export function rateLimitsExemptChecks(suite: Suite): void {
  describe('rate-limit exemption of game origins', () => {
    it(rule('RL-EXEMPT', 'public: GET /health with a game Origin between external ones does not lower the external Remaining'), async (context) => {
      await expectExempt(suite, context, 'public', (identity) => ({ method: 'GET', path: '/health', identity }));
    });

    it(
      rule('RL-EXEMPT', 'public: GET /health with an Origin that only looks like the game origin (a longer host, the other scheme, another port) is counted'),
      async (context) => {
        await expectLookAlikesCounted(suite, context);
      },
    );

    it(rule('RL-EXEMPT', 'read: GET /api/player with a game Origin between external ones does not lower the external Remaining'), async (context) => {
      requirePlayers(suite, context);
      await expectExempt(suite, context, 'read', (identity, token) => ({ method: 'GET', path: '/api/player', identity, token: token! }));
    });

    it(rule('RL-EXEMPT', 'gameplay: POST /api/player/ship with a game Origin between external ones does not lower the external Remaining'), async (context) => {
      requirePlayers(suite, context);
      // The ship payload is not shown: a second ship may be refused; refused or not, the request is a gameplay POST.
      await expectExempt(suite, context, 'gameplay', (identity, token) => createShipCall(suite, token!, identity));
    });
  });
}
