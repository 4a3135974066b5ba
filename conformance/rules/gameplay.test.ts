import { describe, expect, it } from 'vitest';
import { exchangeOf, knowledgeOf } from '../../test/support/judged-exchange.js';
import { ruleOf } from './index.js';

const TOKEN = '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f';
const SHIP = '/api/player/ship';

/** SHIP-VERIFIED's judgements of an answer `status` with the JSON `body` to a ship creation, sent with or without the game origin. */
function shipVerified(status: number, body: unknown, knowledge: { unverifiedPlayer?: boolean; tokenExpiresAt?: number; fromGameOrigin?: boolean }) {
  const { fromGameOrigin = false, ...known } = knowledge;
  const exchange = exchangeOf({
    method: 'POST',
    path: SHIP,
    requestHeaders: { authorization: `Bearer ${TOKEN}`, ...(fromGameOrigin ? { origin: 'https://play.example' } : {}) },
    json: { name: 'Conformance' },
    status,
    body,
  });
  return ruleOf('SHIP-VERIFIED').judge?.(exchange, knowledgeOf(SHIP, { external: !fromGameOrigin, ...known })) ?? [];
}

const REFUSED = { error: 'Email verification is required before creating a ship' };
const holds = (judgements: readonly { holds: boolean }[]) => judgements.map((judgement) => judgement.holds);

describe("SHIP-VERIFIED: an unverified player's ship creation", () => {
  it('holds a 4xx error envelope that speaks of email verification, from any caller', () => {
    expect(holds(shipVerified(403, REFUSED, { unverifiedPlayer: true }))).toEqual([true]);
    expect(holds(shipVerified(400, { error: 'Verify your e-mail first' }, { unverifiedPlayer: true, fromGameOrigin: true }))).toEqual([true]);
  });

  it('fails a ship made, or a refusal that does not say verification is required, for a game origin as for any caller', () => {
    expect(holds(shipVerified(200, { success: true, ship: { id: 1 } }, { unverifiedPlayer: true, fromGameOrigin: true }))).toEqual([false]);
    expect(holds(shipVerified(403, { error: 'Forbidden' }, { unverifiedPlayer: true }))).toEqual([false]);
    expect(holds(shipVerified(500, REFUSED, { unverifiedPlayer: true }))).toEqual([false]);
  });

  it("judges nothing of a player the sender knows nothing of, and a verified player's refusal as before", () => {
    expect(shipVerified(200, { success: true }, {})).toEqual([]);
    expect(holds(shipVerified(403, REFUSED, { tokenExpiresAt: 10 }))).toEqual([false]);
  });
});
