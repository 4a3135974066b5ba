import { type Exchange, integerHeader } from '../common/exchange.js';
import { answeredPlayer, bearerToken } from './traffic-identities.js';

/** The points a player held after this exchange, as its answer shows them: X-ActionPoints-Remaining, or GET /api/player's `actionPoints`. */
function pointsShown(exchange: Exchange): number | undefined {
  const remaining = integerHeader(exchange, 'X-ActionPoints-Remaining');
  if (remaining !== undefined) return remaining;
  const actionPoints = answeredPlayer(exchange)?.['actionPoints'];
  return typeof actionPoints === 'number' ? actionPoints : undefined;
}

/**
 * The points each successful non-GET request of a signed-in player spent, where its answer and an earlier
 * answer of the same token show the points held: the drop between the two. A refill between them makes the
 * drop look smaller, so a negative drop is no figure. `exchanges` in the order they were answered.
 */
export function pointsSpent(exchanges: readonly Exchange[]): Map<Exchange, number> {
  const held = new Map<string, number>();
  const spent = new Map<Exchange, number>();
  for (const exchange of exchanges) {
    const token = bearerToken(exchange);
    const points = pointsShown(exchange);
    if (token === undefined || points === undefined) continue;
    const before = held.get(token);
    if (before !== undefined && before >= points && exchange.method !== 'GET' && exchange.status < 400) spent.set(exchange, before - points);
    held.set(token, points);
  }
  return spent;
}
