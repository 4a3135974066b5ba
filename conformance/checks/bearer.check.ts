import fc from 'fast-check';
import { describe, it } from 'vitest';
import { TOKEN_LIFETIME_MS } from '../../src/spec/limits.js';
import { expectRule, sentBySuite } from './expect-rule.js';
import { authIsScarce, cannotSignIn, verifiedPlayer } from '../fixtures/accounts.js';
import { advanceTo, withFrozenClock } from '../target/clock-scope.js';
import { isSuccess } from '../rules/envelope.js';
import { expectSuccessEnvelope } from './expect-envelope.js';
import type { Exchange } from '../common/exchange.js';
import { garbageAuthorization, propertyOptions } from '../fixtures/generators.js';
import { createShipCall } from '../fixtures/gameplay.js';
import type { Identity } from '../target/identities.js';
import { REFRESH_ROUTES, tokenCandidates } from '../rules/refresh-probes.js';
import type { Call } from '../target/call.js';
import { rule } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';

const PLAYER = '/api/player';
const MINUTE_MS = 60_000;

/** A request to each route where a refresh operation would plausibly be, with the token as a bearer and in the body. */
function refreshProbes(token: string, identity: Identity): Call[] {
  return REFRESH_ROUTES.map(([method, path]) => ({
    method,
    path,
    token,
    identity,
    ...(method === 'POST' ? { json: { token, authToken: token, refreshToken: token } } : {}),
  }));
}

/**
 * Tokens one character from a real one, none of them issued: a server that compares a prefix, or trims what it
 * reads, or matches loosely takes one of them for the token.
 */
function tokenNeighbours(token: string): [string, string][] {
  const last = token.at(-1);
  return [
    [`${token}0`, 'a real token with a character added'],
    [token.slice(0, -1), 'a real token without its last character'],
    [`${token.slice(0, -1)}${last === '0' ? '1' : '0'}`, 'a real token with its last character changed'],
  ];
}

function getPlayer(suite: Suite, identity: Identity, authorization?: string): Promise<Exchange> {
  return suite.target.send({ method: 'GET', path: PLAYER, identity, ...(authorization === undefined ? {} : { headers: { authorization } }) });
}

export function bearerChecks(suite: Suite): void {
  /** AUTH-401 as its rule judges credentials the check knows the target cannot honour. */
  const expect401 = (exchange: Exchange, what: string) =>
    expectRule('AUTH-401', exchange, { ...sentBySuite(suite, exchange), refusedCredentials: what }, 'an answer from a route that needs a token');

  describe('bearer token', () => {
    it(rule('AUTH-401', 'GET /api/player without Authorization, with "Bearer" alone, with another scheme, or with a random UUID answers 401'), async () => {
      const identity = suite.target.identities.fresh();
      expect401(await getPlayer(suite, identity), 'no Authorization header');
      expect401(await getPlayer(suite, identity, 'Bearer'), '"Bearer" and no token');
      expect401(await getPlayer(suite, identity, 'Basic Y29uZm9ybWFuY2U6Y29uZm9ybWFuY2U='), 'the Basic scheme');
      expect401(await getPlayer(suite, identity, `Bearer ${crypto.randomUUID()}`), 'a UUID the server never issued');
    });

    it(rule('AUTH-401', 'POST /api/player/ship without Authorization, and with a random UUID as the token, answers 401'), async () => {
      const identity = suite.target.identities.fresh();
      expect401(await suite.target.send(createShipCall(suite, undefined, identity)), 'ship creation with no Authorization header');
      expect401(await suite.target.send(createShipCall(suite, crypto.randomUUID(), identity)), 'ship creation with a UUID the server never issued');
    });

    it(
      rule('AUTH-401', 'GET /api/player with a real token of the run with a character added, its last removed, or its last changed (still a UUID) answers 401'),
      async (context) => {
        const reason = cannotSignIn(suite);
        if (reason !== undefined) return context.skip(reason);
        const identity = suite.target.identities.fresh();
        const { token } = await verifiedPlayer(suite);
        for (const [altered, what] of tokenNeighbours(token)) expect401(await getPlayer(suite, identity, `Bearer ${altered}`), what);
      },
    );

    it(rule('AUTH-401', 'property: GET /api/player with Authorization values carrying no issued token answers 401'), async () => {
      const identity = suite.target.identities.fresh();
      await fc.assert(
        fc.asyncProperty(garbageAuthorization, async (authorization) => {
          expect401(await getPlayer(suite, identity, authorization), `Authorization: ${authorization}`);
        }),
        propertyOptions(suite.config),
      );
    });

    it(rule('TOKEN-EXPIRY', 'a token is accepted 7 days − 1 min after it was issued and answers 401 1 min after 7 days'), async (context) => {
      const { target } = suite;
      const clock = target.clock;
      if (clock === undefined) return context.skip("the target's clock cannot be moved (no control API with clock control), and a token lives 7 days");
      const reason = cannotSignIn(suite);
      if (reason !== undefined) return context.skip(reason);
      await withFrozenClock(target, clock, async () => {
        // Another request may move the clock (a 429 waited out); an attempt it spoils is made again.
        for (let attempt = 0; attempt < 3; attempt++) {
          const identity = target.identities.fresh();
          const before = await clock.now();
          const { token } = await verifiedPlayer(suite);
          const after = await clock.now();
          const stillValidAt = before + TOKEN_LIFETIME_MS - MINUTE_MS;
          if (!(await advanceTo(clock, stillValidAt))) continue;
          const valid = await getPlayer(suite, identity, `Bearer ${token}`);
          if ((await clock.now()) !== stillValidAt) continue;
          const expiredAt = after + TOKEN_LIFETIME_MS + MINUTE_MS;
          if (!(await advanceTo(clock, expiredAt))) continue;
          const expired = await getPlayer(suite, identity, `Bearer ${token}`);
          if ((await clock.now()) !== expiredAt) continue;
          // On the frozen clock, read before and after the sign-in and set for the read.
          const knowledge = {
            ...sentBySuite(suite, valid),
            serverTime: { fromMs: stillValidAt, toMs: stillValidAt },
            tokenIssuedAt: { fromMs: before, toMs: after },
          };
          expectRule('TOKEN-EXPIRY', valid, { ...knowledge, shaped: true }, 'a token 7 days − 1 min old');
          expectSuccessEnvelope(valid);
          expect401(expired, 'a token 7 days + 1 min old has expired');
          return;
        }
        throw new Error('TOKEN-EXPIRY: the clock moved during each of 3 attempts, so no boundary could be checked');
      });
    });

    it(
      rule(
        'TOKEN-NO-REFRESH',
        'no plausible refresh request (POST /api/auth/refresh and the like, with the token) yields a new token that GET /api/player accepts',
      ),
      async (context) => {
        const reason = cannotSignIn(suite);
        if (reason !== undefined) return context.skip(reason);
        // A server may count requests under /api/auth in the auth bucket: where that budget paces the run, none is spent on a probe.
        if (authIsScarce(suite)) return context.skip('one client address paces the run: probes under /api/auth may count in its auth budget');
        const identity = suite.target.identities.fresh();
        const { token } = await verifiedPlayer(suite);
        for (const probe of refreshProbes(token, identity)) {
          const answer = await suite.target.send(probe);
          if (!isSuccess(answer)) continue;
          for (const candidate of tokenCandidates(answer.body, token)) {
            const read = await getPlayer(suite, identity, `Bearer ${candidate}`);
            const knowledge = { ...sentBySuite(suite, answer), refreshedTokenAccepted: read.status === 200 };
            expectRule('TOKEN-NO-REFRESH', answer, knowledge, `${probe.method} ${probe.path}'s token tried (${candidate.slice(0, 12)}…)`);
          }
        }
      },
    );
  });
}
