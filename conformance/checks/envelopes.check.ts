import fc from 'fast-check';
import { describe, it } from 'vitest';
import { RATE_LIMITS } from '../../src/spec/limits.js';
import { ROUTES } from '../../src/spec/routes.js';
import { observe } from './assertions.js';
import { expectAccepted } from './expect-rule.js';
import { authIsScarce, cannotSignIn, unverifiedToken, verifiedPlayer } from '../fixtures/accounts.js';
import { isSuccess } from '../rules/envelope.js';
import { expectEnvelopeForStatus, expectErrorEnvelope, expectJsonBody, expectSuccessEnvelope } from './expect-envelope.js';
import { header, type Exchange } from '../common/exchange.js';
import { accept, everyKind, garbageAuthorization, malformedJsonBody, method, propertyOptions, unknownPath } from '../fixtures/generators.js';
import type { Identity } from '../target/identities.js';
import { rule } from '../rules/index.js';
import { PROBED_METHODS } from '../rules/routing.js';
import type { Suite } from '../fixtures/suite.js';

/** One generated request. */
interface Probe {
  method: string;
  path: string;
  authorization?: string | undefined;
  body?: string | undefined;
  accept?: string | undefined;
  /** A path or method the Endpoints table does not list: a 2xx there is an endpoint beyond the table, not a failure. */
  unlisted?: boolean;
}

function send(suite: Suite, probe: Probe, identity: Identity): Promise<Exchange> {
  const headers: Record<string, string> = {};
  if (probe.accept !== undefined) headers['accept'] = probe.accept;
  if (probe.authorization !== undefined) headers['authorization'] = probe.authorization;
  if (probe.body !== undefined) headers['content-type'] = 'application/json';
  return suite.target.send({ method: probe.method, path: probe.path, headers, identity, ...(probe.body === undefined ? {} : { rawBody: probe.body }) });
}

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const withBody = (probeMethod: string) => (WITH_BODY.has(probeMethod) ? fc.option(malformedJsonBody, { nil: undefined }) : fc.constant(undefined));

/**
 * Requests that cost no auth budget: the spec's routes outside Auth with methods it does not list, paths
 * no server has, and protected routes without a token the server issued (answered 401, or 400 for the body).
 */
const cheapWrongMethods = ROUTES.filter((route) => route.category !== 'auth').flatMap((route) =>
  PROBED_METHODS.filter((other) => other !== route.method).map((other) => ({ method: other, path: route.path })),
);

function errorProbeKinds(validToken: string | undefined): fc.Arbitrary<Probe>[] {
  const arms: fc.Arbitrary<Probe>[] = [
    method.chain((chosen) => fc.record({ method: fc.constant(chosen), path: unknownPath, body: withBody(chosen), accept, unlisted: fc.constant(true) })),
    fc
      .constantFrom(...cheapWrongMethods)
      .chain((pair) =>
        fc.record({ method: fc.constant(pair.method), path: fc.constant(pair.path), body: withBody(pair.method), accept, unlisted: fc.constant(true) }),
      ),
    fc.record({ method: fc.constant('GET'), path: fc.constant('/api/player'), authorization: fc.option(garbageAuthorization, { nil: undefined }), accept }),
    fc.record({
      method: fc.constant('POST'),
      path: fc.constant('/api/player/ship'),
      authorization: fc.option(garbageAuthorization, { nil: undefined }),
      body: fc.option(malformedJsonBody, { nil: undefined }),
      accept,
    }),
  ];
  if (validToken !== undefined) {
    // A real player's gameplay bucket (60 a minute per player), with bodies that are no JSON object.
    arms.push(
      fc.record({
        method: fc.constant('POST'),
        path: fc.constant('/api/player/ship'),
        authorization: fc.constant(`Bearer ${validToken}`),
        body: malformedJsonBody,
        accept,
      }),
    );
  }
  return arms;
}

/** A signed-in player's token when the run can make one; the properties then reach past authentication. */
async function optionalToken(suite: Suite): Promise<string | undefined> {
  return cannotSignIn(suite) === undefined ? (await verifiedPlayer(suite)).token : undefined;
}

export function envelopesChecks(suite: Suite): void {
  describe('envelopes', () => {
    it(
      rule('BODY-JSON', 'property: unknown paths, unlisted methods, bad tokens, malformed bodies and GET /health, with any Accept, all answer a JSON body'),
      async (context) => {
        const identity = suite.target.identities.fresh();
        const token = await optionalToken(suite);
        const contentTypes = new Set<string>();
        const probes = everyKind(suite.config, [...errorProbeKinds(token), fc.record({ method: fc.constant('GET'), path: fc.constant('/health'), accept })]);
        await fc.assert(
          fc.asyncProperty(probes.arbitrary, async (probe) => {
            const exchange = await send(suite, probe, identity);
            contentTypes.add(header(exchange, 'content-type')?.split(';')[0]?.trim() ?? '(none)');
            expectJsonBody(exchange);
          }),
          { ...propertyOptions(suite.config), examples: probes.examples },
        );
        const notJson = [...contentTypes].filter((type) => !/^application\/([\w.+-]+\+)?json$/i.test(type));
        if (notJson.length > 0)
          await observe(context, `JSON bodies were sent with Content-Type ${notJson.join(', ')} (the spec names no response Content-Type)`);
      },
    );

    it(
      rule(
        'ENV-ERROR',
        'property: requests that must fail (unknown paths, unlisted methods, bad tokens, malformed bodies) answer {error: string}; a 2xx to a path or method the table does not list is an observation',
      ),
      async (context) => {
        const identity = suite.target.identities.fresh();
        const token = await optionalToken(suite);
        const served = new Set<string>();
        const probes = everyKind(suite.config, errorProbeKinds(token));
        await fc.assert(
          fc.asyncProperty(probes.arbitrary, async (probe) => {
            const exchange = await send(suite, probe, identity);
            // "The complete list of endpoints beyond those in the table: not shown."
            if (probe.unlisted === true && isSuccess(exchange)) {
              served.add(`${probe.method} ${probe.path.split('?')[0]} → ${exchange.status}`);
              return;
            }
            // A 2xx here is another rule's failure (401 for a bad token); its body must still be a success envelope.
            expectEnvelopeForStatus(exchange);
          }),
          { ...propertyOptions(suite.config), examples: probes.examples },
        );
        if (served.size > 0)
          await observe(context, `paths or methods the table does not list were served (endpoints beyond the table): ${[...served].join('; ')}`);
      },
    );

    it(
      rule(
        'ENV-ERROR',
        "property (a few runs: each costs an auth request): malformed bodies to register and verify-email answer the envelope of their status, {error: string} on an error (which status is REG-MISSING's and VERIFY-MISSING's)",
      ),
      async (context) => {
        if (authIsScarce(suite)) {
          return context.skip(
            "one client address paces the run: REG-MISSING's and VERIFY-MISSING's malformed bodies stand for these samples (their answers are judged by ENV-ERROR «every error response the run received…»)",
          );
        }
        const identity = suite.target.identities.fresh();
        const probes = fc.record({
          method: fc.constant('POST'),
          path: fc.constantFrom('/api/auth/register', '/api/auth/verify-email'),
          body: malformedJsonBody,
          accept,
        });
        await fc.assert(
          fc.asyncProperty(probes, async (probe) => {
            expectEnvelopeForStatus(await send(suite, probe, identity));
          }),
          propertyOptions(suite.config, { costly: true }),
        );
      },
    );

    it(
      rule('ENV-ERROR', 'the 429 that ends a spent auth budget (verify-email bodies without fields, sent until one is refused) is {error: string}'),
      async (context) => {
        if (authIsScarce(suite)) {
          return context.skip(
            'one client address paces the run: its auth budget is not spent on purpose (the auth 429 RL-AUTH-IP provokes with --game-origin, and every other 429 the run meets, is judged by the traffic invariants: ENV-ERROR «every 429 the run received…»)',
          );
        }
        // A client of its own: its auth budget is spent for the rest of the minute (the scheduler waits out any 429 it meets later).
        const identity = suite.target.identities.fresh();
        for (let sent = 0; sent < RATE_LIMITS.auth.limit + 3; sent++) {
          const exchange = await suite.target.send({ method: 'POST', path: '/api/auth/verify-email', json: {}, identity, expectLimit: true });
          if (exchange.status !== 429) continue;
          expectErrorEnvelope(exchange);
          return;
        }
        return context.skip(`no 429 after ${RATE_LIMITS.auth.limit + 3} auth requests from one client (the RL-* checks judge the limit itself)`);
      },
    );

    it(rule('ENV-SUCCESS', 'property: GET /api/player with a valid token, with any Accept, answers 2xx {success: true, …}'), async (context) => {
      const reason = cannotSignIn(suite);
      if (reason !== undefined) return context.skip(reason);
      const { token } = await verifiedPlayer(suite);
      const identity = suite.target.identities.fresh();
      await fc.assert(
        fc.asyncProperty(accept, async (chosen) => {
          const exchange = await send(suite, { method: 'GET', path: '/api/player', authorization: `Bearer ${token}`, accept: chosen }, identity);
          expectAccepted(suite, exchange, 'GET /api/player with a valid token');
          expectSuccessEnvelope(exchange);
        }),
        propertyOptions(suite.config, { cap: 10 }),
      );
    });

    it(
      rule(
        'ENV-SUCCESS',
        'GET /api/player with the token of a player whose email is not verified answers 2xx {success: true, …}: the route asks a bearer token only',
      ),
      async (context) => {
        const unverified = await unverifiedToken(suite);
        if ('reason' in unverified) return context.skip(unverified.reason);
        const exchange = await send(
          suite,
          { method: 'GET', path: '/api/player', authorization: `Bearer ${unverified.token}` },
          suite.target.identities.fresh(),
        );
        // GET /api/player asks a bearer token, not a verified email (only ship creation does).
        expectAccepted(suite, exchange, 'GET /api/player with an unverified player’s token');
        expectSuccessEnvelope(exchange);
      },
    );
  });
}
