import { ROUTES } from '../../src/spec/routes.js';
import { bearerToken } from './bearer.js';
import type { Exchange } from '../common/exchange.js';
import { errorMessage, isErrorEnvelope, isSuccess } from './envelope.js';
import { judged, type Rule } from './rule.js';

/** The methods a path of the table is probed with (HEAD and OPTIONS belong to HTTP and CORS, not to the Endpoints table). */
export const PROBED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The paths whose other methods must be refused 405, as the routing check probes them: those of the routes that
 * need no token. On a player's path another method may be an endpoint beyond the table ("not shown"), whose 404
 * says the player's resource does not exist (GET /api/player/ship before a ship is made).
 */
const TOKENLESS_METHODS = new Map<string, string>(ROUTES.filter((route) => route.auth === 'none').map((route) => [route.path, route.method]));

/** A refusal's message that speaks of the method or the route, not of parameters: "Method not allowed", "Cannot PUT /health". */
const SPEAKS_OF_ROUTING = /method|not allowed|not supported|not found|no (such )?route|cannot (get|post|put|patch|delete)\b/i;

/**
 * Whether an answer says an endpoint is there ("the complete list of endpoints beyond those in the table: not
 * shown"): a 2xx serves the request; a 400 or 422 error envelope refuses its parameters, which only an endpoint that
 * reads them does (GET /api/auth/verify-email for an e-mail's link, sent without its query), unless its message
 * speaks of the method or the route (a refusal of the method under another status). Any other answer (404, 401,
 * 403, 500, …) is a refusal of the method.
 */
export function answeredByAnEndpoint(exchange: Exchange): boolean {
  if (isSuccess(exchange)) return true;
  if (exchange.status !== 400 && exchange.status !== 422) return false;
  return isErrorEnvelope(exchange.body) && !SPEAKS_OF_ROUTING.test(errorMessage(exchange));
}

/** A path that is not served, and a method a path does not take. */
export const ROUTING_RULES = [
  {
    id: 'ERR-404',
    side: 'server',
    quote: '404 Not found',
    sentences: ['ERR-STATUS-404'],
    // Only a sender that made the path up knows no server has it: a deployment serves more than the table.
    session: ['pathNoServerHas'],
    judge(exchange, knowledge) {
      if (knowledge.pathNoServerHas !== true) return [];
      // Without a token, a server may check it before routing: a 401 is as good an answer.
      const withToken = bearerToken(exchange.requestHeaders) !== undefined;
      const holds = exchange.status === 404 || (!withToken && exchange.status === 401);
      return [judged('not-found', holds, `status 404 for a path no server has${withToken ? ', sent with a valid token' : ' (or 401, sent without a token)'}`)];
    },
  },
  {
    id: 'ERR-405',
    side: 'server',
    quote: '405 Method not allowed',
    sentences: ['ERR-STATUS-405'],
    proxy:
      'a 405 (or an endpoint beyond the table: a 2xx, or a 400 or 422 refusing its parameters) to another method of a path of the table that needs no token',
    judge(exchange, { path }) {
      const listed = TOKENLESS_METHODS.get(path);
      const method = exchange.method.toUpperCase();
      if (listed === undefined || method === listed || !(PROBED_METHODS as readonly string[]).includes(method)) return [];
      // "The complete list of endpoints beyond those in the table: not shown"; a 429 is the limits' to judge.
      if (answeredByAnEndpoint(exchange) || exchange.status === 429) return [];
      return [
        judged(
          'status-405',
          exchange.status === 405,
          `status 405 for ${method} on ${path}, which the Endpoints table lists only with ${listed} (or, for an endpoint the table does not list, a 2xx or a 400 or 422 refusing its parameters)`,
          `answered ${exchange.status} to ${method} on ${path}, which the Endpoints table lists only with ${listed}: expected 405`,
        ),
      ];
    },
  },
] as const satisfies readonly Rule[];
