import { type Exchange, integerHeader } from '../common/exchange.js';
import { answeredPlayer, bearerToken } from './traffic-identities.js';

/**
 * The fields of a player's ship or player that the traffic shows moving with the action points: equal to the
 * points held each time they were answered, or falling by one per gameplay call (or by the points spent) between
 * two answers, and never moving otherwise. A replay makes them read the mock's points.
 */

/** Where a counter reads the mock's points, in the `ship` and `player` templates and in what gameplay writes. */
export const POINTS_TEMPLATE = '{{player.actionPoints}}';

interface Snapshot {
  fields: Readonly<Record<string, unknown>>;
  points: number | undefined;
  /** Successful gameplay calls (requests other than GET) of its player so far, its own included. */
  calls: number;
}

/** The points an answer shows its player holding after it. */
function pointsShown(exchange: Exchange): number | undefined {
  const remaining = integerHeader(exchange, 'X-ActionPoints-Remaining');
  if (remaining !== undefined) return remaining;
  const actionPoints = answeredPlayer(exchange)?.['actionPoints'];
  return typeof actionPoints === 'number' ? actionPoints : undefined;
}

function snapshotsByPlayer(exchanges: readonly Exchange[], answered: (exchange: Exchange) => Readonly<Record<string, unknown>> | undefined) {
  const byToken = new Map<string, Snapshot[]>();
  const points = new Map<string, number>();
  const calls = new Map<string, number>();
  for (const exchange of exchanges) {
    const token = bearerToken(exchange);
    if (token === undefined) continue;
    if (exchange.method !== 'GET' && exchange.status < 400) calls.set(token, (calls.get(token) ?? 0) + 1);
    const shown = pointsShown(exchange);
    if (shown !== undefined) points.set(token, shown);
    const fields = answered(exchange);
    if (fields === undefined) continue;
    const snapshots = byToken.get(token) ?? [];
    snapshots.push({ fields, points: points.get(token), calls: calls.get(token) ?? 0 });
    byToken.set(token, snapshots);
  }
  return [...byToken.values()];
}

function isCounter(field: string, players: readonly Snapshot[][]): boolean {
  const equalSeen = new Set<number>();
  let equalAlways = true;
  let fell = false;
  let fallsAsPlayed = true;
  for (const snapshots of players) {
    const known = snapshots.filter((snapshot) => typeof snapshot.fields[field] === 'number');
    for (const [index, snapshot] of known.entries()) {
      const value = snapshot.fields[field] as number;
      if (snapshot.points !== undefined) {
        if (value === snapshot.points) equalSeen.add(value);
        else equalAlways = false;
      }
      const previous = known[index - 1];
      if (previous === undefined) continue;
      const drop = (previous.fields[field] as number) - value;
      const spent = previous.points !== undefined && snapshot.points !== undefined ? previous.points - snapshot.points : undefined;
      if (drop !== snapshot.calls - previous.calls && drop !== spent) fallsAsPlayed = false;
      else if (drop > 0) fell = true;
    }
  }
  return (equalAlways && equalSeen.size > 1) || (fallsAsPlayed && fell);
}

/** The numeric fields of the answered resources that are counters of the action points, in the order first met. */
export function counterFields(exchanges: readonly Exchange[], answered: (exchange: Exchange) => Readonly<Record<string, unknown>> | undefined): string[] {
  const players = snapshotsByPlayer(exchanges, answered);
  const fields = new Set(players.flat().flatMap((snapshot) => Object.keys(snapshot.fields).filter((field) => typeof snapshot.fields[field] === 'number')));
  return [...fields].filter((field) => isCounter(field, players));
}
