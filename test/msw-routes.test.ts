import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMswMock } from '../src/hosts/msw.js';
import { loadMockConfig } from '../src/index.js';

const API = 'https://routes.game.test';
const TOKEN = '1c9c7f3e-8d2a-4c1b-9e6f-5a4d3c2b1a01';

let dir = '';
let msw: ReturnType<typeof setupServer> | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'game-service-msw-routes-'));
  writeFileSync(join(dir, 'handlers.mjs'), 'export default (context) => ({ asteroid: context.params.asteroid, ore: context.spendActionPoints(2) ?? 2 });\n');
  writeFileSync(join(dir, 'pilots.json'), JSON.stringify({ players: [{ email: 'pilot@example.com', token: TOKEN }] }));
  writeFileSync(
    join(dir, 'mock.json'),
    JSON.stringify({
      port: 9999,
      world: 'pilots.json',
      routes: [
        { method: 'POST', path: '/api/mine/:asteroid', cost: 1, module: './handlers.mjs' },
        { method: 'GET', path: '/api/status', category: 'public', response: { at: '{{now}}' } },
      ],
    }),
  );
  const options = await loadMockConfig(join(dir, 'mock.json'));
  msw = setupServer(...createMswMock({ baseUrl: API, onOtp: () => {}, ...options }).handlers);
  msw.listen({ onUnhandledFrame: 'bypass' });
});
afterAll(() => {
  msw?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('routes of a config file in the msw host, loaded by loadMockConfig', () => {
  it("answers the module's handler and the template routes as the standalone server does", async () => {
    const mined = await fetch(`${API}/api/mine/ceres`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(mined.status).toBe(200);
    expect(await mined.json()).toEqual({ success: true, asteroid: 'ceres', ore: 2 });
    expect(mined.headers.get('x-actionpoints-remaining')).toBe('57');
    const status = await fetch(`${API}/api/status`);
    expect(await status.json()).toMatchObject({ success: true, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it('adds, answers and removes a route at run time through the control API it serves', async () => {
    const route = { method: 'GET', path: '/api/sectors/:id', category: 'public', response: { sector: '{{params.id}}' } };
    const added = await fetch(`${API}/__mock/routes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(route) });
    expect(added.status).toBe(200);
    expect(await (await fetch(`${API}/api/sectors/9`)).json()).toEqual({ success: true, sector: '9' });
    const removed = await fetch(`${API}/__mock/routes/${encodeURIComponent('GET /api/sectors/:id')}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect((await fetch(`${API}/api/sectors/9`)).status).toBe(404);
  });

  it('throws every problem of a bad file, as the CLI names them', async () => {
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({
        routes: [
          { method: 'GET', path: '/api/x', module: './none.mjs' },
          { method: 'GET', path: 'nope' },
        ],
      }),
    );
    await expect(loadMockConfig(join(dir, 'bad.json'))).rejects.toThrow(
      /2 problems in the configuration:\n {2}- .*\/routes\/1\/path "nope" must start with \/api\/\n {2}- .*\/routes\/0\/module: cannot load \.\/none\.mjs/,
    );
  });
});
