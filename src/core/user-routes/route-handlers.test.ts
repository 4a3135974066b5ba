import { describe, expect, it } from 'vitest';
import { CoreHarness } from '../../../test/support/core-harness.js';
import type { RouteHandlerContext, UserRoute } from './user-route.js';

const errors: unknown[] = [];

function harness(routes: UserRoute[]) {
  return new CoreHarness({ routes, actionPoints: { start: 5, max: 5 }, onError: (error) => errors.push(error) });
}

const mine: UserRoute = {
  method: 'POST',
  path: '/api/mine/:asteroid',
  cost: 1,
  handler: async (context: RouteHandlerContext) => {
    const depth = Number(context.body['depth'] ?? 1);
    if (depth > 3) throw context.error(422, 'Too deep');
    context.spendActionPoints(depth - 1);
    const ore = ((context.state.get('ore') as number | undefined) ?? 0) + depth;
    context.state.set('ore', ore);
    await Promise.resolve();
    return { asteroid: context.params['asteroid'], ore, by: context.player?.email, at: context.now.toISOString() };
  },
};
const cargo: UserRoute = {
  method: 'GET',
  path: '/api/cargo',
  handler: (context) => context.reply(202, { ore: context.state.get('ore') ?? 0, all: context.state.all() }),
};

describe('routes answered by a handler', () => {
  it('gives the handler params, body, player, clock and state; spends the cost and what it spent; keeps its state', async () => {
    const core = harness([mine, cargo]);
    const token = await core.signIn('pilot@example.com');
    const mined = await core.call('POST', '/api/mine/ceres', { token, body: { depth: 3 } });
    expect(mined).toMatchObject({ status: 200, body: { success: true, asteroid: 'ceres', ore: 3, by: 'pilot@example.com', at: '2026-11-21T10:00:00.000Z' } });
    expect(mined.headers['x-actionpoints-remaining']).toBe('2');
    expect(await core.call('GET', '/api/cargo', { token })).toMatchObject({ status: 202, body: { success: true, ore: 3, all: { ore: 3 } } });
  });

  it('keeps nothing and spends nothing when the handler throws context.error, or spends more than there is', async () => {
    const core = harness([mine, cargo]);
    const token = await core.signIn('pilot@example.com');
    expect(await core.call('POST', '/api/mine/ceres', { token, body: { depth: 4 } })).toMatchObject({ status: 422, body: { error: 'Too deep' } });
    await core.call('POST', '/api/mine/ceres', { token, body: { depth: 3 } });
    const broke = await core.call('POST', '/api/mine/ceres', { token, body: { depth: 3 } });
    expect(broke.status).toBe(403);
    expect(broke.headers['x-actionpoints-remaining']).toBe('2');
    expect((await core.call('GET', '/api/cargo', { token })).body).toMatchObject({ ore: 3 });
  });

  it('answers 500 and names the route when a handler misbehaves (a read that spends, a string returned)', async () => {
    errors.length = 0;
    const core = harness([
      { method: 'GET', path: '/api/spend', handler: (context) => context.spendActionPoints(1) },
      { method: 'GET', path: '/api/text', handler: () => 'ok' },
    ]);
    const token = await core.signIn('pilot@example.com');
    expect((await core.call('GET', '/api/spend', { token })).status).toBe(500);
    expect((await core.call('GET', '/api/text', { token })).status).toBe(500);
    expect(errors.map(String)).toEqual([
      'RouteHandlerError: route GET /api/spend: spends action points, but it is a read route; only gameplay routes spend them',
      'RouteHandlerError: route GET /api/text: returned string; a handler returns an object of fields, nothing, or context.reply(status, body)',
    ]);
  });

  it('refuses a state write on a public route with 400, and reads nothing there', async () => {
    const core = harness([
      {
        method: 'POST',
        path: '/api/open',
        category: 'public',
        handler: (context) => {
          context.state.set('x', 1);
          return {};
        },
      },
    ]);
    expect(await core.call('POST', '/api/open')).toMatchObject({ status: 400, body: { error: 'a public route has no player to keep state for' } });
  });
});
