import { HEADERS } from '../../src/spec/limits.js';
import { errorMessage, isClientError, isSuccess, isSuccessEnvelope } from './envelope.js';
import { type Exchange, header, integerHeader } from '../common/exchange.js';
import { judged, type Judgement, type Rule, routeKey, tableRoutes } from './rule.js';

const SHIP_ROUTE = 'POST /api/player/ship';
const GAMEPLAY_ROUTES = tableRoutes((route) => route.category === 'gameplay');

/** An error message saying that email verification is required (the spec's words for an unverified player). */
export function speaksOfVerification(exchange: Exchange): boolean {
  const message = errorMessage(exchange);
  return /verif/i.test(message) && /e-?mail/i.test(message);
}

/** Ship creation by a verified player, and the action-point headers of gameplay. */
export const GAMEPLAY_RULES = [
  {
    id: 'SHIP-VERIFIED',
    side: 'server',
    quote:
      'When POST /api/player/ship is called by a player whose email is not verified, the body is an error envelope whose message says that email verification is required before creating a ship.',
    sentences: ['ERR-SHIP-UNVERIFIED', 'SVC-SHIP-VERIFIED', 'STATE-SHIP-RULE', 'EP-SHIP', 'STATE-VERIFY'],
    proxy: 'no ship creation refused for want of verification with a token the server issued at verification',
    // A token issued at verify-email is a verified player's (Code pending → Verified with active token); which
    // players are not verified only their sender knows (live traffic does not show it).
    session: ['tokenExpiresAt', 'unverifiedPlayer'],
    routes: new Set([SHIP_ROUTE]),
    judge(exchange, knowledge) {
      if (routeKey(exchange, knowledge) !== SHIP_ROUTE) return [];
      const refused = isClientError(exchange) && speaksOfVerification(exchange);
      // Refused for every caller alike: nothing in the rule lets a game origin's request through the gate.
      if (knowledge.unverifiedPlayer === true) {
        return [
          judged(
            'unverified-refused',
            refused,
            'a 4xx error envelope whose message says that email verification is required before creating a ship',
            `answered ${exchange.status} ${JSON.stringify(errorMessage(exchange))} to a player whose email is not verified: expected a 4xx error envelope saying that email verification is required`,
          ),
        ];
      }
      if (knowledge.tokenExpiresAt === undefined) return [];
      return [
        judged(
          'verified-not-refused',
          !refused,
          'no refusal for want of email verification: the token was issued when the player verified the code',
          `answered ${exchange.status} ${JSON.stringify(errorMessage(exchange))} to a player whose token its verification issued`,
        ),
      ];
    },
  },
  {
    id: 'AP-HEADERS',
    side: 'server',
    quote: 'Gameplay responses carry X-ActionPoints-Remaining (integer). When it is 0, X-ActionPoints-NextRefill (integer) is also sent.',
    sentences: ['LIM-AP-REMAINING', 'LIM-AP-REFILL', 'EP-SHIP'],
    proxy: 'X-ActionPoints-Remaining (integer) on a successful gameplay answer, with X-ActionPoints-NextRefill when it is 0',
    routes: GAMEPLAY_ROUTES,
    judge(exchange, knowledge) {
      if (!GAMEPLAY_ROUTES.has(routeKey(exchange, knowledge))) return [];
      const judgements: Judgement[] = [];
      const remaining = integerHeader(exchange, HEADERS.actionPointsRemaining);
      if (isSuccess(exchange) && exchange.method.toUpperCase() !== 'HEAD') {
        judgements.push(
          judged(
            'gameplay-success',
            remaining !== undefined && isSuccessEnvelope(exchange.body),
            `${HEADERS.actionPointsRemaining} (integer) and success: true on a successful gameplay response`,
          ),
        );
      }
      const before = knowledge.actionPointsBefore;
      if (before !== undefined) {
        judgements.push(
          judged(
            'no-more-than-before',
            remaining !== undefined && remaining >= 0 && remaining <= before,
            `${HEADERS.actionPointsRemaining} from 0 to ${before}, the points the player had`,
            `${HEADERS.actionPointsRemaining} ${header(exchange, HEADERS.actionPointsRemaining) ?? 'absent'} where the player had ${before} points`,
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
