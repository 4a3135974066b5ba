import { describe, expect, it } from 'vitest';
import { CoreHarness } from '../../../test/support/core-harness.js';
import { refusal } from '../../../test/support/control-refusal.js';
import { createMockControl } from '../../hosts/mock-control.js';

function setUp(options: ConstructorParameters<typeof CoreHarness>[0] = {}) {
  const harness = new CoreHarness(options);
  return { harness, control: createMockControl(harness.service, '127.0.0.1') };
}

describe('control API: routes at run time', () => {
  it('adds a route the API then answers, lists it, and replaces it by method and path', async () => {
    const { harness, control } = setUp();
    expect((await harness.call('GET', '/api/news/7', { token: await harness.signIn('reader@example.com') })).status).toBe(404);
    const added = await control.putRoute({ method: 'GET', path: '/api/news/:id', response: { headline: 'news {{params.id}}' } });
    expect(added).toEqual({
      success: true,
      replaced: false,
      route: { id: 'GET /api/news/:id', method: 'GET', path: '/api/news/:id', category: 'read', auth: 'bearer', cost: null, source: 'config' },
    });
    const token = await harness.signIn('pilot@example.com');
    const answer = await harness.call('GET', '/api/news/7', { token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, headline: 'news 7' });
    expect(answer.headers['x-ratelimit-limit']).toBe('60');

    const replaced = await control.putRoute({ method: 'GET', path: '/api/news/:slug', category: 'public', status: 202, response: { slug: '{{params.slug}}' } });
    expect(replaced.replaced).toBe(true);
    expect(await harness.call('GET', '/api/news/launch')).toMatchObject({ status: 202, body: { success: true, slug: 'launch' } });
    expect((await control.routes()).filter((route) => route.source === 'config').map((route) => route.id)).toEqual(['GET /api/news/:slug']);
    expect((await control.journal())[0]).toMatchObject({ route: 'GET /api/news/:slug', status: 202 });
  });

  it('spends the cost of a gameplay route added at run time, and its own cost once replaced', async () => {
    const { harness, control } = setUp({ actionPoints: { start: 10, max: 10 } });
    const token = await harness.signIn('pilot@example.com');
    await control.putRoute({ method: 'POST', path: '/api/mine', cost: 3, response: { ore: 5 } });
    expect((await harness.call('POST', '/api/mine', { token })).headers['x-actionpoints-remaining']).toBe('7');
    await control.putRoute({ method: 'POST', path: '/api/mine', cost: 5 });
    expect((await control.routes()).find((route) => route.id === 'POST /api/mine')?.cost).toBe(5);
    expect((await harness.call('POST', '/api/mine', { token })).headers['x-actionpoints-remaining']).toBe('2');
  });

  it('removes a route by its encoded id, giving back the route of the mock it replaced', async () => {
    const { harness, control } = setUp();
    const token = await harness.signIn('pilot@example.com');
    await control.putRoute({ method: 'GET', path: '/api/player/ship', body: { recorded: true } });
    expect((await harness.call('GET', '/api/player/ship', { token })).body).toEqual({ recorded: true });
    expect(await control.removeRoute('GET /api/player/ship')).toMatchObject({ id: 'GET /api/player/ship', source: 'config' });
    expect((await harness.call('GET', '/api/player/ship', { token })).status).toBe(404);
    const shipReads = (await control.routes()).filter((route) => route.method === 'GET' && route.path === '/api/player/ship');
    expect(shipReads.map((route) => route.source)).toEqual(['mock']);
    const missing = await refusal(control.removeRoute('GET /health'));
    expect(missing).toEqual({ status: 404, message: expect.stringContaining(`No route of your own "GET /health"; the spec's and the mock's stay`) });
  });

  it('refuses what the config file refuses, at the same JSON Pointer, and keeps the routes it had', async () => {
    const { control } = setUp({ routes: [{ method: 'GET', path: '/api/kept' }] });
    const cases: Array<[unknown, string]> = [
      [{ method: 'GET', path: '/api/x', respone: {} }, 'body must NOT have additional properties (respone)'],
      [{ method: 'FETCH', path: '/api/x' }, 'body /method must be equal to one of the allowed values'],
      [{ method: 'GET', path: '/x' }, 'body /path '],
      [{ method: 'POST', path: '/api/auth/register' }, 'is the row "POST {base_url}/api/auth/register"'],
      [{ method: 'GET', path: '/api/x', cost: 2 }, 'body /cost is for gameplay routes'],
      [{ method: 'GET', path: '/api/x', response: { a: '{{nope.x}}' } }, 'body /response/a'],
      [{ method: 'GET', path: '/api/x', module: './routes.mjs' }, "body /module: a handler's module is read from the config file"],
    ];
    for (const [route, message] of cases) {
      const refused = await refusal(control.putRoute(route as never));
      expect(refused.status, JSON.stringify(route)).toBe(400);
      expect(refused.message, JSON.stringify(route)).toContain(message);
    }
    expect((await control.routes()).filter((route) => route.source === 'config').map((route) => route.id)).toEqual(['GET /api/kept']);
  });

  it('describes a route added at run time in the OpenAPI document, and forgets it once removed', async () => {
    const { harness, control } = setUp();
    const paths = async () => Object.keys(((await harness.call('GET', '/__mock/openapi.json')).body as { paths: object }).paths);
    expect(await paths()).not.toContain('/api/news/{id}');
    await control.putRoute({ method: 'GET', path: '/api/news/:id', response: { headline: '{{query.lang}}' } });
    const document = (await harness.call('GET', '/__mock/openapi.json')).body as { paths: Record<string, { get?: { parameters?: Array<{ name: string }> } }> };
    expect(document.paths['/api/news/{id}']?.get?.parameters?.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['id', 'lang']));
    await control.removeRoute('GET /api/news/:id');
    expect(await paths()).not.toContain('/api/news/{id}');
  });
});
