import type { Exchange } from './exchange.js';
import { errorMessage } from './envelope.js';
import type { Identity } from './identities.js';
import type { Suite } from './suite.js';
import type { Call } from './call.js';

export const SHIP_PATH = '/api/player/ship';

/** Why a check that needs the target to take the ship payload cannot judge anything. */
export const PAYLOAD_REFUSED = 'the target refused the ship payload; pass --ship-payload';

/** POST /api/player/ship with the run's payload (--ship-payload; the spec does not show it). */
export function createShipCall(suite: Suite, token: string | undefined, identity: Identity, extra: Partial<Call> = {}): Call {
  return { method: 'POST', path: SHIP_PATH, json: suite.config.shipPayload, identity, ...(token === undefined ? {} : { token }), ...extra };
}

export function createShip(suite: Suite, token: string | undefined, identity: Identity = suite.target.identities.fresh()): Promise<Exchange> {
  return suite.target.send(createShipCall(suite, token, identity));
}

/** An error message saying that email verification is required (the spec's words for an unverified player). */
export function speaksOfVerification(exchange: Exchange): boolean {
  const message = errorMessage(exchange);
  return /verif/i.test(message) && /e-?mail/i.test(message);
}

/** A 400 that is not about verification: the target would not take the payload, so the check proves nothing. */
export function refusedPayload(exchange: Exchange): boolean {
  return exchange.status === 400 && !speaksOfVerification(exchange);
}

/** The skip reason for a refused payload, with the target's own words. */
export function payloadRefusal(exchange: Exchange): string {
  return `${PAYLOAD_REFUSED} (answer 400 ${JSON.stringify(errorMessage(exchange))})`;
}
