import { describe, expect, it } from 'vitest';
import { CoreHarness } from '../../test/support/core-harness.js';
import type { UserRoute } from './user-routes/user-route.js';

const REFILL_MS = 60_000;

describe('respond reads, and writes nothing', () => {
  it("shows the points left at the request's time, even when the clock moves before the answer leaves", async () => {
    let core: CoreHarness | undefined;
    // A gameplay route whose handler spends the last point, then lets a refill interval pass before it answers.
    const dig: UserRoute = {
      method: 'POST',
      path: '/api/dig',
      cost: 1,
      handler: async () => {
        await Promise.resolve();
        core!.clock.advance(REFILL_MS);
        return { dug: true };
      },
    };
    core = new CoreHarness({ routes: [dig], actionPoints: { start: 1, max: 1, refillIntervalMs: REFILL_MS } });
    const token = await core.signIn('digger@example.com');
    const dug = await core.call('POST', '/api/dig', { token });
    expect(dug.status).toBe(200);
    expect(dug.headers['x-actionpoints-remaining']).toBe('0');
    expect(dug.headers['x-actionpoints-nextrefill']).toBe('60');
    // Answering refilled nothing: the point accrues once the interval has passed since the spend, as the player reads it.
    const player = await core.call('GET', '/api/player', { token });
    expect(player.body).toMatchObject({ player: { actionPoints: 1 } });
  });
});
