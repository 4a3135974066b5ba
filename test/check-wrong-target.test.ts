import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCli } from './support/cli.js';

/** `game-service check` pointed at a server that is no Game Service: it says so and stops, unless --force. */

const cli = useCli();
let server: Server;
let url = '';
let registerPosts = 0;

beforeAll(async () => {
  // A web site: every path answers a page of HTML.
  server = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/api/auth/register') registerPosts++;
    request.resume();
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Welcome</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('game-service check against a target that does not look like this API', () => {
  it('says why, runs the health checks only (one registration sent), and answers 1', async () => {
    const result = await cli.run(['check', '--base-url', url], {}, 60_000);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toContain(`${url}/ does not look like the Game Service API: GET /health answered 200 "<!doctype html><title>Welcome</title>"`);
    expect(result.stdout).toContain('Running the health checks only; pass --force to run every check.');
    expect(result.stdout).toMatch(/\n\d passed, [12] failed, 0 skipped/);
    expect(result.stdout).not.toMatch(/REG-|VERIFY-|RL-/);
    expect(registerPosts).toBe(1);
  });

  it('with --force, runs the checks it is asked for', async () => {
    const result = await cli.run(['check', '--base-url', url, '--force', '--only', 'ERR-404'], {}, 60_000);
    expect(result.stdout).not.toContain('does not look like');
    expect(result.stdout).toMatch(/✗ ERR-404/);
  });
});
