import { describe, expect, it } from 'vitest';
import type { UserRoute } from '../src/core/user-routes/user-route.js';
import { CoreHarness } from './support/core-harness.js';
import { Validator } from '@seriousme/openapi-schema-validator';

const ROUTES: UserRoute[] = [
  { method: 'GET', path: '/api/galaxy/:galaxyId/sectors', response: { galaxyId: '{{params.galaxyId}}' } },
  { method: 'POST', path: '/api/player/ship/move', cost: 2, state: { sector: '{{body.sectorId}}' } },
  { method: 'GET', path: '/api/news', category: 'public', handler: () => ({ items: [] }), source: './routes.ts#news' },
];

async function control(core: CoreHarness, path: string) {
  const response = await core.service.handle({ method: 'GET', path, headers: {}, ip: '127.0.0.1', peer: '127.0.0.1' });
  return response.body as Record<string, unknown>;
}

describe('routes of your own in the control API, the journal and the OpenAPI document', () => {
  it('lists every route with method, path, category, cost and source', async () => {
    const core = new CoreHarness({ routes: ROUTES, actionCosts: { createShip: 1 } });
    const { routes } = (await control(core, '/__mock/routes')) as { routes: Record<string, unknown>[] };
    expect(routes).toContainEqual({
      id: 'createShip',
      method: 'POST',
      path: '/api/player/ship',
      category: 'gameplay',
      auth: 'verified',
      cost: 1,
      source: 'spec',
    });
    expect(routes).toContainEqual({ id: 'getShip', method: 'GET', path: '/api/player/ship', category: 'read', auth: 'bearer', cost: null, source: 'mock' });
    expect(routes.slice(-3)).toEqual([
      {
        id: 'GET /api/galaxy/:galaxyId/sectors',
        method: 'GET',
        path: '/api/galaxy/:galaxyId/sectors',
        category: 'read',
        auth: 'bearer',
        cost: null,
        source: 'config',
      },
      { id: 'POST /api/player/ship/move', method: 'POST', path: '/api/player/ship/move', category: 'gameplay', auth: 'bearer', cost: 2, source: 'config' },
      { id: 'GET /api/news', method: 'GET', path: '/api/news', category: 'public', auth: 'none', cost: null, source: './routes.ts#news' },
    ]);
  });

  it('marks each journal entry with the id of the route it matched, the pattern for a path with parameters', async () => {
    const core = new CoreHarness({ routes: ROUTES });
    const token = await core.signIn('pilot@example.com');
    await core.call('GET', '/api/galaxy/42/sectors', { token });
    await core.call('GET', '/api/news');
    const [news, sectors] = core.service.journal.latest(2);
    expect(sectors).toMatchObject({ path: '/api/galaxy/42/sectors', route: 'GET /api/galaxy/:galaxyId/sectors', category: 'read' });
    expect(news).toMatchObject({ path: '/api/news', route: 'GET /api/news', category: 'public' });
  });

  it('describes them in /__mock/openapi.json, each in its category, parameters templated, and the document stays valid', async () => {
    const core = new CoreHarness({ routes: ROUTES });
    const document = (await control(core, '/__mock/openapi.json')) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const sectors = document.paths['/api/galaxy/{galaxyId}/sectors']!['get']!;
    expect(sectors).toMatchObject({
      operationId: 'configured.get.api.galaxy.galaxyId.sectors',
      'x-rate-limit': { category: 'read' },
      parameters: [{ name: 'galaxyId', in: 'path' }],
    });
    expect(document.paths['/api/player/ship/move']!['post']).toMatchObject({ 'x-rate-limit': { category: 'gameplay' }, security: [{ bearerAuth: [] }] });
    const news = document.paths['/api/news']!['get']!;
    expect(news).toMatchObject({ summary: "A public read from the mock's configuration (./routes.ts#news)", 'x-rate-limit': { category: 'public' } });
    expect(news['security'], 'explicitly open').toEqual([]);
    expect(document.paths['/__mock/routes']).toBeDefined();
    expect(await new Validator().validate(structuredClone(document))).toEqual({ valid: true });
  });
});

describe('what a configured route reads and answers, in the OpenAPI document', () => {
  const CONFIGURED: UserRoute[] = [
    {
      method: 'GET',
      path: '/api/galaxy/:galaxyId/sector',
      answers: [
        { when: { query: { id: '1' } }, response: { name: 'Sol' } },
        { when: { query: { id: '2' } }, status: 410, response: { gone: true } },
      ],
    },
    { method: 'POST', path: '/api/player/ship/dock', status: 201, response: { port: '{{body.port}}', at: '{{query.at}}' } },
    { method: 'POST', path: '/api/replayed', category: 'public', status: '{{body.status}}', body: { recorded: true } },
  ];

  it('declares the query parameters and body fields its templates and conditions read, and each status it answers', async () => {
    const document = (await control(new CoreHarness({ routes: CONFIGURED }), '/__mock/openapi.json')) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    const sector = document.paths['/api/galaxy/{galaxyId}/sector']!['get']!;
    expect(sector.parameters).toEqual([
      expect.objectContaining({ name: 'galaxyId', in: 'path' }),
      expect.objectContaining({ name: 'id', in: 'query', required: false }),
    ]);
    expect(Object.keys(sector.responses)).toEqual(expect.arrayContaining(['200', '404', '410']));
    const dock = document.paths['/api/player/ship/dock']!['post']!;
    expect(dock.parameters).toEqual([expect.objectContaining({ name: 'at', in: 'query' })]);
    expect(dock.requestBody).toMatchObject({ required: false, content: { 'application/json': { schema: { type: 'object', properties: { port: {} } } } } });
    expect(Object.keys(dock.responses)).toContain('201');
    expect(Object.keys(dock.responses)).not.toContain('200');
    const replayed = document.paths['/api/replayed']!['post']!;
    expect(Object.keys(replayed.responses)).toContain('default');
    expect(await new Validator().validate(structuredClone(document))).toEqual({ valid: true });
  });
});
