import { describe, it } from 'vitest';
import { RATE_LIMITS } from '../../src/spec/limits.js';
import { observe, requireThat } from './assertions.js';
import { expectAccepted, expectBucketCount, expectRule, sentBySuite } from './expect-rule.js';
import { fixture } from '../fixtures/fixture.js';
import { describeAddressing, type Identity } from '../target/identities.js';
import { authIsScarce, secondToken, verifiedPlayer } from '../fixtures/accounts.js';
import { uniqueEmail } from '../fixtures/players.js';
import { createShipCall } from '../fixtures/gameplay.js';
import { rule } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';
import type { Call } from '../target/call.js';
import {
  expectRemainingInRange,
  hasRateLimitHeaders,
  ownPlayerOn,
  remainingOf,
  sharedPlayerOn,
  requirePlayers,
  sendTimed,
  resetUnitOf,
  startFreshWindows,
  type Timed,
  windowMoved,
} from './rate-limits-support.js';

// "Auth (register, verify): 5 requests per IP per minute, every caller."
// "Registration, verification and admin routes stay limited by IP for every caller."
// "Reads (authenticated GET): 60 requests per player per minute."

const AUTH_LIMIT = RATE_LIMITS.auth.limit;
const addressing = (suite: Suite) => describeAddressing(suite.config.sourceIps, suite.config.clientIpHeader);

/** A counted auth request that sends no email: a verify-email with a code that cannot be right (any 4xx will do). */
function authCall(suite: Suite, identity: Identity, options: { origin?: string; expectLimit?: boolean; register?: boolean } = {}): Call {
  const email = uniqueEmail(suite, 'rate-limit');
  return {
    method: 'POST',
    path: options.register === true ? '/api/auth/register' : '/api/auth/verify-email',
    json: options.register === true ? { email } : { email, otp: '000000' },
    identity,
    ...(options.origin === undefined ? {} : { origin: options.origin }),
    ...(options.expectLimit === true ? { expectLimit: true } : {}),
  };
}

/** The answers a count starts from show Remaining, as an external caller's answers must. */
function expectRemainingShown(suite: Suite, ...answers: Timed[]): void {
  for (const { exchange } of answers) {
    expectRule('RL-REMAINING', exchange, sentBySuite(suite, exchange), 'X-RateLimit-Remaining on a response to an external caller');
  }
}

/** A client whose auth bucket is spent, by external requests until a 429 (when no earlier check spent one). */
const spentAuthClient = fixture(async (suite): Promise<Identity> => {
  const identity = suite.target.identities.fresh();
  for (let sent = 0; sent <= AUTH_LIMIT * 2; sent++) {
    if ((await suite.target.send(authCall(suite, identity, { expectLimit: true }))).status === 429) return identity;
  }
  throw new Error(`${AUTH_LIMIT * 2 + 1} auth requests from ${identity.label} never answered 429`);
});

export function rateLimitsScopeChecks(suite: Suite): void {
  describe('rate-limit scope', () => {
    it(
      rule('RL-AUTH-IP', 'auth requests with a game Origin are counted: Remaining falls, and the request after the 5 of the minute is a 429'),
      async (context) => {
        const { gameOrigin } = suite.config;
        requireThat(context, gameOrigin !== null, 'no game origin: pass --game-origin');
        const { target } = suite;
        const clockMoved = await startFreshWindows(suite);
        const identity = target.identities.fresh();
        // Spending the auth bucket of the run's only address would hold up every later sign-in for a minute.
        const mayExhaust = clockMoved || target.identities.distinct > 1;
        const before = await sendTimed(suite, authCall(suite, identity, { expectLimit: mayExhaust }));
        const left = remainingOf(before.exchange);
        expectRule('RL-REMAINING', before.exchange, sentBySuite(suite, before.exchange), 'X-RateLimit-Remaining on the response to an external auth request');

        if (!mayExhaust) {
          await sendTimed(suite, authCall(suite, identity, { origin: gameOrigin!, register: true }));
          const after = await sendTimed(suite, authCall(suite, identity));
          expectBucketCount(suite, after.exchange, {
            rule: 'RL-AUTH-IP',
            since: { remaining: left!, counted: 2 },
            why: 'the game-origin request in between was counted',
          });
          await observe(
            context,
            'the 429 after 5 was not provoked: the run has one client address and no clock control (pass --source-ips or --forwarded-for)',
          );
          return;
        }

        const game: Timed[] = [];
        for (let index = 0; index < left!; index++) {
          const current = await sendTimed(suite, authCall(suite, identity, { origin: gameOrigin!, expectLimit: true, register: index === 0 }));
          game.push(current);
          expectBucketCount(suite, current.exchange, {
            rule: 'RL-AUTH-IP',
            spent: false,
            since: { remaining: left!, counted: index + 1 },
            remainingOptional: true,
            why: `the game-origin request is counted, ${left! - index} auth requests were left`,
          });
        }
        const refused = await sendTimed(suite, authCall(suite, identity, { origin: gameOrigin!, expectLimit: true }));
        expectBucketCount(suite, refused.exchange, {
          rule: 'RL-AUTH-IP',
          spent: true,
          why: `the ${AUTH_LIMIT} auth requests of ${identity.label}'s minute are spent, game origin or not (${addressing(suite)})`,
        });
        suite.fixtures.offer(spentAuthClient, identity);
        const withHeaders = game.filter(({ exchange }) => hasRateLimitHeaders(exchange)).length;
        await observe(
          context,
          `game-origin auth responses ${withHeaders === game.length ? 'carry' : withHeaders === 0 ? 'carry no' : 'do not always carry'} X-RateLimit-* headers`,
        );
        // The run's only address must not stay locked out of sign-ins.
        if (target.identities.distinct === 1) await startFreshWindows(suite);
      },
    );

    it(rule('RL-AUTH-IP', 'two client addresses do not share an auth bucket'), async (context) => {
      const { target } = suite;
      requireThat(context, target.identities.distinct > 1, 'one client address only: pass --source-ips or --forwarded-for');
      const spent = await spentAuthClient(suite);
      const other = target.identities.fresh();
      const stillSpent = await target.send(authCall(suite, spent, { expectLimit: true }));
      expectBucketCount(suite, stillSpent, {
        rule: 'RL-AUTH-IP',
        spent: true,
        why: `the auth bucket of ${spent.label} was spent moments ago (${addressing(suite)})`,
      });
      const answer = await target.send(authCall(suite, other, { expectLimit: true }));
      // Clients told apart by a header only: a target that ignores it sees one address, the socket's, and one bucket.
      const header = suite.config.clientIpHeader;
      const ignored =
        header === null
          ? ''
          : `; every address the run stands for with ${header} seems to share one bucket, so the target may ignore ${header} (a game-service mock reads it only when started with --trust-proxy)`;
      expectBucketCount(suite, answer, {
        rule: 'RL-AUTH-IP',
        spent: false,
        why: `${other.label}'s auth bucket is its own, not the spent one of ${spent.label} (${addressing(suite)})${answer.status === 429 ? ignored : ''}`,
      });
      expectRemainingInRange(suite, answer, AUTH_LIMIT);
    });

    it(
      rule(
        'RL-AUTH-IP',
        'auth requests carrying a valid bearer token are counted like any other: Remaining falls by them, and once the bucket is spent one is a 429',
      ),
      async (context) => {
        // Every auth request of such a run is planned (auth-plan.ts): none is spent beyond it.
        requireThat(context, !authIsScarce(suite), 'one client address paces the run: no auth request is spent beyond the plan');
        requirePlayers(suite, context);
        const { target } = suite;
        const { token } = await verifiedPlayer(suite);
        const clockMoved = await startFreshWindows(suite);
        const identity = target.identities.fresh();
        // Spending the auth bucket of the run's only address would hold up every later sign-in for a minute.
        const mayExhaust = clockMoved || target.identities.distinct > 1;
        const external = () => sendTimed(suite, authCall(suite, identity, { expectLimit: mayExhaust }));
        const holdingToken = () => sendTimed(suite, { ...authCall(suite, identity, { expectLimit: mayExhaust }), token });
        const before = await external();
        const left = remainingOf(before.exchange);
        expectRule('RL-REMAINING', before.exchange, sentBySuite(suite, before.exchange), 'X-RateLimit-Remaining on the response to an external auth request');
        await holdingToken();
        const after = await external();
        expectBucketCount(suite, after.exchange, {
          rule: 'RL-AUTH-IP',
          since: { remaining: left!, counted: 2 },
          why: 'the request in between, carrying a valid bearer token, was counted',
        });
        if (!mayExhaust) {
          await observe(
            context,
            'the 429 of a spent bucket was not provoked: the run has one client address and no clock control (pass --source-ips or --forwarded-for)',
          );
          return;
        }
        for (let index = 2; index < left!; index++) await external();
        const refused = await holdingToken();
        expectBucketCount(suite, refused.exchange, {
          rule: 'RL-AUTH-IP',
          spent: true,
          why: `the ${AUTH_LIMIT} auth requests of ${identity.label}'s minute are spent, a token or not (${addressing(suite)})`,
        });
        // The run's only address must not stay locked out of sign-ins.
        if (target.identities.distinct === 1) await startFreshWindows(suite);
      },
    );

    it(rule('RL-PER-PLAYER', "two players on one client address: reads of one do not change the other's Remaining"), async (context) => {
      requirePlayers(suite, context);
      const identity = suite.target.identities.fresh();
      const [a, b] = [(await sharedPlayerOn(suite, identity))!, await ownPlayerOn(suite, identity)];
      await startFreshWindows(suite);
      const read = (token: string) => sendTimed(suite, { method: 'GET', path: '/api/player', token, identity });
      const first = await read(b.token);
      const aFirst = await read(a.token);
      await read(a.token);
      const aLast = await read(a.token);
      const second = await read(b.token);
      for (const { exchange } of [first, aFirst, aLast, second]) expectAccepted(suite, exchange, 'a read with a valid token, its bucket fresh');
      const [bBefore, aBefore] = [first, aFirst].map(({ exchange }) => remainingOf(exchange));
      expectRemainingShown(suite, first, aFirst);
      expectBucketCount(suite, aLast.exchange, { rule: 'RL-PER-PLAYER', since: { remaining: aBefore!, counted: 2 }, why: "player A's own reads count down" });
      expectBucketCount(suite, second.exchange, {
        rule: 'RL-PER-PLAYER',
        since: { remaining: bBefore!, counted: 1 },
        why: `one less than player B's ${bBefore} before, the 3 reads of player A on the same address not counted`,
      });
    });

    it(rule('RL-PER-PLAYER', 'one player signed in twice: reads with either token count down one read bucket'), async (context) => {
      requirePlayers(suite, context);
      const identity = suite.target.identities.fresh();
      const player = await ownPlayerOn(suite, identity);
      const other = await secondToken(suite, player, identity);
      requireThat(context, other !== undefined, 'one client address paces the run: a second sign-in of one player is not spent on purpose');
      await startFreshWindows(suite);
      const read = (token: string) => sendTimed(suite, { method: 'GET', path: '/api/player', token, identity });
      const first = await read(player.token);
      // "Whether a new registration invalidates earlier codes": not shown, and a target may end earlier tokens too.
      requireThat(context, first.exchange.status !== 401, 'the target ended the first token when the player signed in again: no two tokens to compare');
      const second = await read(other!);
      const third = await read(player.token);
      for (const { exchange } of [first, second, third]) expectAccepted(suite, exchange, 'a read with a valid token, its bucket fresh');
      expectRemainingShown(suite, first);
      const before = remainingOf(first.exchange)!;
      expectBucketCount(suite, second.exchange, {
        rule: 'RL-PER-PLAYER',
        since: { remaining: before, counted: 1 },
        why: `with the second token, one less than the ${before} the first token's read left: the player's one bucket`,
      });
      expectBucketCount(suite, third.exchange, {
        rule: 'RL-PER-PLAYER',
        since: { remaining: before, counted: 2 },
        why: "both tokens' reads counted in one bucket",
      });
    });

    it(rule('RL-PER-PLAYER', "one player reading from two client addresses: the reads of both count down the player's one read bucket"), async (context) => {
      requirePlayers(suite, context);
      const { target } = suite;
      requireThat(context, target.identities.distinct > 1, 'one client address only: pass --source-ips or --forwarded-for');
      const [home, away] = [target.identities.fresh(), target.identities.fresh()];
      const player = await ownPlayerOn(suite, home);
      await startFreshWindows(suite);
      const read = (identity: Identity) => sendTimed(suite, { method: 'GET', path: '/api/player', token: player.token, identity });
      const reads = [await read(home), await read(away), await read(home)];
      for (const { exchange } of reads) expectAccepted(suite, exchange, 'a read with a valid token, its bucket fresh');
      expectRemainingShown(suite, reads[0]!);
      const first = remainingOf(reads[0]!.exchange)!;
      expectBucketCount(suite, reads[1]!.exchange, {
        rule: 'RL-PER-PLAYER',
        since: { remaining: first, counted: 1 },
        why: `from ${away.label}, one less than the ${first} of the player's read from ${home.label}: a bucket per player whatever the address (${addressing(suite)})`,
      });
      expectBucketCount(suite, reads[2]!.exchange, {
        rule: 'RL-PER-PLAYER',
        since: { remaining: first, counted: 2 },
        why: 'the reads from both addresses counted in one bucket',
      });
    });

    it(
      rule(
        'RL-WINDOW',
        'each category has a bucket of its own: public reads, authenticated reads and gameplay POSTs of one client and player never spend one another',
      ),
      async (context) => {
        requirePlayers(suite, context);
        const identity = suite.target.identities.fresh();
        const player = await ownPlayerOn(suite, identity);
        await startFreshWindows(suite);
        const health = () => sendTimed(suite, { method: 'GET', path: '/health', identity });
        const read = () => sendTimed(suite, { method: 'GET', path: '/api/player', token: player.token, identity });
        // The ship payload is not shown: a second ship may be refused; refused or not, the request is a gameplay POST.
        const gameplay = () => sendTimed(suite, createShipCall(suite, player.token, identity));
        const sent: Record<'public' | 'read' | 'gameplay', Timed[]> = { public: [], read: [], gameplay: [] };
        for (const category of ['public', 'read', 'gameplay', 'read', 'read', 'public', 'gameplay', 'read'] as const) {
          sent[category].push(await (category === 'public' ? health() : category === 'read' ? read() : gameplay()));
        }
        for (const [category, responses] of Object.entries(sent)) {
          const [first, last] = [responses[0]!, responses.at(-1)!];
          requireThat(context, !windowMoved(resetUnitOf(responses), first, last), `a ${category} window ended during the check: nothing to compare`);
          expectRemainingShown(suite, first);
          const before = remainingOf(first.exchange)!;
          const between = responses.length - 1;
          expectBucketCount(suite, last.exchange, {
            rule: 'RL-WINDOW',
            since: { remaining: before, counted: between },
            why: `in the ${category} bucket, ${between} fewer than its first answer's ${before}: the other categories' requests in between not counted in it`,
          });
        }
      },
    );
  });
}
