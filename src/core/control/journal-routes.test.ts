import { describe, expect, it } from 'vitest';
import { CoreHarness, GAME_ORIGIN, START } from '../../../test/support/core-harness.js';
import { createMockControl, MockControlError } from '../../hosts/mock-control.js';

/** A journal of known requests: a signed-in player's reads, a game origin's health check, an unknown path, a fault. */
async function traffic() {
  const harness = new CoreHarness({ faultSeed: 3 });
  const control = createMockControl(harness.service, '127.0.0.1');
  const token = await harness.signIn('pilot@example.com', '198.51.100.1');
  harness.clock.advance(60_000);
  await harness.call('GET', '/api/player', { token });
  await harness.call('GET', '/api/player', { token });
  await harness.call('GET', '/health', { origin: GAME_ORIGIN, ip: '198.51.100.2' });
  harness.clock.advance(60_000);
  await harness.call('GET', '/api/nowhere');
  await control.addFault('GET /health 503');
  await harness.call('GET', '/health');
  return { harness, control };
}

describe('control API: journal filters and GET /__mock/journal/count', () => {
  it('counts by method, path pattern, status or class, ip, player (id or email), origin, time and fault', async () => {
    const { control } = await traffic();
    const player = (await control.players())[0]!;
    expect(await control.count()).toBe(7);
    expect(await control.count({ method: 'post' })).toBe(2);
    expect(await control.count({ path: '/api/*' })).toBe(5);
    expect(await control.count({ path: '/api/:resource' })).toBe(3);
    expect(await control.count({ path: '/api/player' })).toBe(2);
    expect(await control.count({ status: 404 })).toBe(1);
    expect(await control.count({ status: '5xx' })).toBe(1);
    expect(await control.count({ ip: '198.51.100.1' })).toBe(2);
    expect(await control.count({ player: 'pilot@example.com' })).toBe(2);
    expect(await control.count({ player: player.id, method: 'GET' })).toBe(2);
    expect(await control.count({ player: 'nobody@example.com' })).toBe(0);
    expect(await control.count({ origin: GAME_ORIGIN })).toBe(1);
    expect(await control.count({ from: START + 60_000, to: new Date(START + 60_000) })).toBe(3);
    expect(await control.count({ from: new Date(START + 120_000).toISOString() })).toBe(2);
    expect(await control.count({ fault: true })).toBe(1);
    expect(await control.count({ fault: 'status' })).toBe(1);
    expect(await control.count({ fault: 'reset' })).toBe(0);
    expect(await control.count({ fault: false })).toBe(6);
  });

  it('lists the entries the same filters select, newest first, each with the faults it met', async () => {
    const { control } = await traffic();
    expect(await control.journal({ path: '/health' })).toMatchObject([
      { path: '/health', status: 503, ip: '203.0.113.1', fault: ['status 503'] },
      { path: '/health', status: 200, origin: GAME_ORIGIN, fault: null },
    ]);
    const page = await control.call('GET', '/__mock/journal?status=200&limit=1');
    expect(page).toMatchObject({ entries: [{ path: '/health', status: 200 }], nextCursor: expect.any(String) });
  });

  it('selects by a request header, and takes what a filter selects out of the journal, the rest kept', async () => {
    const { harness, control } = await traffic();
    await harness.call('GET', '/health', { headers: { 'x-game-service-run': '42' } });
    await harness.call('GET', '/api/nowhere', { headers: { 'X-Game-Service-Run': '42' } });
    expect(await control.count({ header: 'X-Game-Service-Run:42' })).toBe(2);
    expect(await control.count({ header: 'x-game-service-run:4' })).toBe(0);
    expect(await control.removeRequests({ header: 'x-game-service-run:42' })).toBe(2);
    expect(await control.count({ header: 'x-game-service-run:42' })).toBe(0);
    expect(await control.count()).toBe(7);
    expect(await control.removeRequests({ path: '/health' })).toBe(2);
    expect((await control.requests()).map((entry) => entry.path)).toEqual([
      '/api/nowhere',
      '/api/player',
      '/api/player',
      '/api/auth/verify-email',
      '/api/auth/register',
    ]);
  });

  it('refuses a misspelt filter or a bad value with a 400 instead of matching everything', async () => {
    const { control } = await traffic();
    const refused = async (pathAndQuery: string) => {
      const error = await control.call('GET', pathAndQuery).catch((thrown: unknown) => thrown);
      return error instanceof MockControlError ? `${error.status} ${error.envelopeMessage}` : 'answered';
    };
    expect(await refused('/__mock/journal/count?stauts=500')).toBe(
      '400 query stauts is not a journal filter; use method, path, status, ip, player, origin, from, to, fault, bodyMatches, header',
    );
    expect(await refused('/__mock/journal/count?limit=5')).toMatch(/^400 query limit is not a journal filter/);
    expect(await refused('/__mock/journal?status=5x')).toBe('400 query status must be a 3-digit HTTP status, or a class such as 5xx');
    expect(await refused('/__mock/journal/count?from=yesterday')).toBe('400 query from must be an ISO 8601 time (2030-01-01T09:00:00Z) or epoch milliseconds');
    expect(await refused('/__mock/journal/count?fault=maybe')).toMatch(/^400 query fault must be true, false or a kind of fault/);
    expect(await refused(`/__mock/journal/count?path=${'*'.repeat(201)}`)).toBe('400 query path must be at most 200 characters');
    expect(await refused('/__mock/journal/count?header=x-run')).toBe('400 query header must be NAME:VALUE, e.g. x-request-id:abc123');
    expect(await refused('/__mock/journal/count?bodyMatches=%7Bbad')).toMatch(/^400 query bodyMatches starts with \{ or \[ but is not JSON: "b" at position 1/);
  });

  it('keeps what a client sent, secrets masked, for requests({bodyMatches}), the listing and the HAR', async () => {
    const { harness, control } = await traffic();
    const token = await harness.signIn('second@example.com');
    await harness.call('POST', '/api/player/ship', { token, body: { name: 'Nomad', hull: { armor: 3 } }, headers: { 'x-client': 'web 1.2' } });
    await harness.call('POST', '/api/player/ship', { token, body: { name: 'Comet' } });
    const [nomad, ...others] = await control.requests({ path: '/api/player/ship', bodyMatches: { hull: { armor: 3 } } });
    expect(others).toEqual([]);
    expect(nomad).toMatchObject({ status: 200, requestBody: '{"name":"Nomad","hull":{"armor":3}}' });
    expect(nomad!.requestHeaders).toEqual({ 'content-type': 'application/json', 'x-client': 'web 1.2', authorization: `Bearer ${token.slice(0, 9)}…` });
    expect(await control.count({ bodyMatches: 'Comet' })).toBe(1);
    expect(await control.count({ bodyMatches: { name: 'Nova' } })).toBe(0);
    const [verified] = await control.requests({ path: '/api/auth/verify-email', bodyMatches: { email: 'second@example.com' } });
    expect(JSON.parse(verified!.requestBody!)).toEqual({ email: 'second@example.com', otp: '…' });

    const har = (await control.call('GET', '/__mock/journal.har?bodyMatches=Nomad')) as unknown as {
      log: { entries: { request: { headers: { name: string; value: string }[]; postData?: { mimeType: string; text: string } } }[] };
    };
    expect(har.log.entries).toHaveLength(1);
    expect(har.log.entries[0]!.request.postData).toEqual({ mimeType: 'application/json', text: '{"name":"Nomad","hull":{"armor":3}}' });
    expect(har.log.entries[0]!.request.headers).toContainEqual({ name: 'x-client', value: 'web 1.2' });
  });
});
