import { HEADERS } from '../../src/spec/limits.js';
import { ROUTES } from '../../src/spec/routes.js';
import { isSuccess } from './envelope.js';
import { header, integerHeader, isObject } from '../target/exchange.js';
import { judged, type Judgement, type Rule, routeKey } from './rule.js';

const GAMEPLAY_ROUTES = new Set<string>(ROUTES.filter((route) => route.category === 'gameplay').map((route) => `${route.method} ${route.path}`));

/** Ship creation by a verified player, and the action-point headers of gameplay. */
export const GAMEPLAY_RULES = [
  {
    id: 'SHIP-VERIFIED',
    side: 'server',
    quote:
      'When POST /api/player/ship is called by a player whose email is not verified, the body is an error envelope whose message says that email verification is required before creating a ship.',
    sentences: ['ERR-SHIP-UNVERIFIED', 'SVC-SHIP-VERIFIED', 'STATE-SHIP-RULE', 'EP-SHIP'],
  },
  {
    id: 'AP-HEADERS',
    side: 'server',
    quote: 'Gameplay responses carry X-ActionPoints-Remaining (integer). When it is 0, X-ActionPoints-NextRefill (integer) is also sent.',
    sentences: ['LIM-AP-REMAINING', 'LIM-AP-REFILL', 'EP-SHIP'],
    proxy: 'X-ActionPoints-Remaining (integer) on a successful gameplay answer, with X-ActionPoints-NextRefill when it is 0',
    judge(exchange, knowledge) {
      if (!GAMEPLAY_ROUTES.has(routeKey(exchange, knowledge))) return [];
      const judgements: Judgement[] = [];
      const remaining = integerHeader(exchange, HEADERS.actionPointsRemaining);
      if (isSuccess(exchange) && exchange.method.toUpperCase() !== 'HEAD') {
        judgements.push(
          judged(
            'gameplay-success',
            remaining !== undefined && isObject(exchange.body) && exchange.body['success'] === true,
            `${HEADERS.actionPointsRemaining} (integer) and success: true on a successful gameplay response`,
          ),
        );
      }
      if (header(exchange, HEADERS.actionPointsRemaining) !== undefined) {
        const refillOk = remaining !== 0 || integerHeader(exchange, HEADERS.actionPointsNextRefill) !== undefined;
        judgements.push(
          judged(
            'action-points-integers',
            remaining !== undefined && refillOk,
            `${HEADERS.actionPointsRemaining} as an integer, and ${HEADERS.actionPointsNextRefill} (integer) when it is 0`,
          ),
        );
      }
      return judgements;
    },
  },
] as const satisfies readonly Rule[];
