import fc from 'fast-check';
import { describe, it } from 'vitest';
import { ROUTES } from '../../src/spec/routes.js';
import { authIsScarce, cannotSignIn, verifiedPlayer } from '../fixtures/accounts.js';
import { observe } from './assertions.js';
import { header } from '../common/exchange.js';
import { counted } from '../common/counted.js';
import { malformedJsonBody, method, propertyOptions, unknownPath } from '../fixtures/generators.js';
import { rule } from '../rules/index.js';
import { answeredByAnEndpoint, PROBED_METHODS } from '../rules/routing.js';
import { expectRule, sentBySuite } from './expect-rule.js';
import type { Suite } from '../fixtures/suite.js';

/**
 * The spec's routes that need no token, with each method the Endpoints table does not list for them.
 * Protected routes are left out: whether a server checks the token or the method first is not shown, and
 * "the complete list of endpoints beyond those in the table: not shown" (GET /api/player/ship may exist).
 */
const UNLISTED = ROUTES.filter((route) => route.auth === 'none').flatMap((route) =>
  PROBED_METHODS.filter((other) => other !== route.method).map((other) => ({ method: other, path: route.path, auth: route.category === 'auth' })),
);

export function routingChecks(suite: Suite): void {
  describe('routing', () => {
    it(
      rule(
        'ERR-404',
        'property: paths no server has, with any method, answer 404 (sent with a valid token when the run has one; without one, a 401 is accepted: the token may be checked before routing)',
      ),
      async (context) => {
        const identity = suite.target.identities.fresh();
        const token = cannotSignIn(suite) === undefined ? (await verifiedPlayer(suite)).token : undefined;
        const probes = method.chain((chosen) =>
          fc.record({
            method: fc.constant(chosen),
            path: unknownPath,
            body: chosen === 'GET' || chosen === 'DELETE' ? fc.constant(undefined) : fc.option(malformedJsonBody, { nil: undefined }),
          }),
        );
        let unauthorized = 0;
        await fc.assert(
          fc.asyncProperty(probes, async (probe) => {
            const exchange = await suite.target.send({
              method: probe.method,
              path: probe.path,
              identity,
              ...(token === undefined ? {} : { token }),
              ...(probe.body === undefined ? {} : { rawBody: probe.body, headers: { 'content-type': 'application/json' } }),
            });
            if (token === undefined && exchange.status === 401) unauthorized++;
            expectRule('ERR-404', exchange, { ...sentBySuite(suite, exchange), pathNoServerHas: true }, 'a judgement of the made-up path');
          }),
          propertyOptions(suite.config),
        );
        if (unauthorized > 0)
          await observe(context, `unknown paths sent without a token answered 401 (${counted(unauthorized, 'time')}): the token is checked before routing`);
      },
    );

    it(
      rule(
        'ERR-405',
        `${[...new Set(UNLISTED.map((pair) => pair.path))].join(', ')} with each method the Endpoints table does not list for them (of GET, POST, PUT, PATCH, DELETE): a refusal is 405; a 2xx, or a 400 or 422 refusing the parameters, is an endpoint the table does not list`,
      ),
      async (context) => {
        // Four requests a client: a target may count these in the auth budget (5 a minute), though the Auth category is their
        // POST only, so the scheduler does not hold them back; a 429 they meet is waited out like any other.
        const publicIdentity = suite.target.identities.fresh();
        const authIdentities = [suite.target.identities.fresh(), suite.target.identities.fresh()];
        const allows = new Map<string, string>();
        const served: string[] = [];
        let authIndex = 0;
        // Where one client address's auth budget paces the run, every request a target may count in it is planned: these
        // are not, as a target may count them or not (both legal), so they are sent only where they cost no planned wait.
        const scarce = authIsScarce(suite);
        for (const pair of UNLISTED) {
          if (pair.auth && scarce) continue;
          const identity = pair.auth ? authIdentities[Math.floor(authIndex++ / 4) % authIdentities.length]! : publicIdentity;
          const exchange = await suite.target.send({ method: pair.method, path: pair.path, identity });
          // "The complete list of endpoints beyond those in the table: not shown": a 2xx, or a refusal of its parameters.
          if (answeredByAnEndpoint(exchange)) {
            served.push(`${pair.method} ${pair.path} → ${exchange.status}`);
            continue;
          }
          expectRule('ERR-405', exchange, sentBySuite(suite, exchange), `a refusal of ${pair.method} on ${pair.path}, not a 429`);
          allows.set(pair.path, header(exchange, 'allow') ?? '(none)');
        }
        if (served.length > 0) await observe(context, `methods the table does not list were answered by endpoints beyond the table: ${served.join('; ')}`);
        if (allows.size > 0) await observe(context, `Allow on 405: ${[...allows].map(([path, allow]) => `${path} → ${allow}`).join('; ')}`);
        if (scarce) {
          await observe(
            context,
            'the auth paths were not probed with unlisted methods: one client address paces the run, and a target may count such requests in its auth budget',
          );
        }
      },
    );
  });
}
