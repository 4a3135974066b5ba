import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, useCli } from './support/cli.js';
import { call } from './support/http.js';

const cli = useCli();
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'game-service-cli-faults-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('game-service mock --fault', () => {
  it('injects the faults given, prints them and the seed in the banner, and marks them in the journal', async () => {
    const { process, url } = await startMock(cli, ['--port', '0', '--fault', 'GET /health 503', '--fault', '/api/* latency:1', '--fault-seed', '1234']);
    expect(process.stdout).toContain('  faults:       GET /health 503; * /api/* latency:1\n');
    expect(process.stdout).toContain('  fault seed:   1234 (--fault-seed 1234 replays the same draws)\n');
    expect(await call(`${url}/health`)).toMatchObject({
      status: 503,
      body: { error: 'Service Unavailable (a fault injected by the mock: rule f1, GET /health 503)' },
    });
    expect(await call(`${url}/__mock/journal/count?fault=status`)).toMatchObject({ status: 200, body: { success: true, count: 1 } });
    expect(await call(`${url}/__mock/faults`)).toMatchObject({ body: { seed: 1234, faults: [{ id: 'f1' }, { id: 'f2' }] } });
  });

  it.each([
    [['--fault', 'GET /health 418'], 'game-service: --fault "GET /health 418" is not [METHOD] PATH EFFECT[@PROBABILITY]'],
    [['--fault-seed', 'x'], 'game-service: --fault-seed "x" is not a seed'],
  ])('exits 2 before listening on %j', async (args, message) => {
    const result = await cli.run(['mock', '--port', '0', ...args], {}, 5_000);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  it('takes faults from GAME_SERVICE_FAULT and a config file, and refuses a bad one there naming its key', async () => {
    const { process } = await startMock(cli, ['--port', '0'], { GAME_SERVICE_FAULT: 'GET /health 503,* * reset@0.1' });
    expect(process.stdout).toContain('  faults:       GET /health 503; * * reset@0.1\n');
    const config = join(dir, 'bad.json');
    writeFileSync(config, JSON.stringify({ faults: [{ kind: 'latency', minMs: 9, maxMs: 1 }] }));
    const result = await cli.run(['mock', '--port', '0', '--config', config], {}, 5_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`game-service: --config ${config}: /faults/0: a latency fault takes ms, or minMs and maxMs with minMs <= maxMs`);
  });
});
