import { expect } from 'vitest';
import type { ServiceResponse } from '../../src/core/http.js';
import type { StoreEngine } from '../../src/core/store-engine.js';
import type { UserRoute } from '../../src/core/user-routes/user-route.js';
import { type CallOptions, CoreHarness, GAME_ORIGIN } from './core-harness.js';

/** Tokens and ids are random: two runs of the same requests differ only there. */
export const normalized = (value: unknown): string =>
  JSON.stringify(value ?? null).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');

const mine: UserRoute = {
  method: 'POST',
  path: '/api/mine/:asteroid',
  cost: 1,
  handler: async (context) => {
    const ore = ((context.state.get('ore') as number | undefined) ?? 0) + Number(context.body['depth'] ?? 1);
    context.state.set('ore', ore);
    await Promise.resolve();
    return { asteroid: context.params['asteroid'], ore };
  },
};
const cargo: UserRoute = { method: 'GET', path: '/api/cargo', handler: (context) => ({ ore: context.state.get('ore') ?? 0 }) };

/** A service on a manual clock with a config route (templates) and handler routes, kept by `engine` when given. */
export function everyRouteHarness(engine: StoreEngine | undefined): CoreHarness {
  return new CoreHarness({
    ship: { current_sector: 1, serial: '{{counter}}' },
    player: { rank: 'cadet' },
    routes: [{ method: 'POST', path: '/api/player/ship/move', ship: { current_sector: '{{body.sectorId}}' }, player: { rank: 'pilot' } }, mine, cargo],
    ...(engine === undefined ? {} : { storeEngine: engine }),
  });
}

/**
 * Every route of the API (the spec's, the mock's, a config route with templates, a handler's), the refusals (401,
 * 404, 405) and an exempt read, from one client: each answer without its Date, tokens and ids made alike, and how
 * many requests were counted.
 */
export async function everyRouteSession(core: CoreHarness): Promise<{ answers: string[]; counted: number }> {
  const ip = '198.51.100.7';
  const email = 'pilot@example.com';
  const answers: ServiceResponse[] = [];
  const send = async (method: string, path: string, options: CallOptions = {}) => {
    const answer = await core.call(method, path, { ip, ...options });
    answers.push(answer);
    return answer;
  };
  await send('GET', '/health');
  await send('POST', '/api/auth/register', { body: { email } });
  const verified = await send('POST', '/api/auth/verify-email', { body: { email, otp: core.lastCode(email) } });
  const token = (verified.body as { authToken: string }).authToken;
  await send('GET', '/api/player', { token });
  await send('POST', '/api/player/ship', { token, body: { name: 'Nomad' } });
  await send('GET', '/api/player/ship', { token });
  await send('POST', '/api/player/ship/move', { token, body: { sectorId: 5 } });
  await send('POST', '/api/mine/ceres', { token, body: { depth: 2 } });
  await send('GET', '/api/cargo', { token });
  await send('GET', '/api/player', { token });
  await send('GET', '/api/player');
  await send('GET', '/api/nowhere');
  await send('DELETE', '/health');
  const exempt = await send('GET', '/api/player', { token, origin: GAME_ORIGIN });
  const counted = answers.length - 1;
  expect(exempt.headers['x-ratelimit-remaining']).toBeUndefined();
  const view = ({ status, headers: { date: _date, ...headers }, body }: ServiceResponse) => normalized({ status, headers, body });
  return { answers: answers.map(view), counted };
}
