import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, useCli } from './support/cli.js';

/** Likely mistakes, named before anything runs, each with what to do instead (exit 2). */

const cli = useCli();

let busy: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (busy === undefined ? resolve() : busy.close(() => resolve()))));

async function occupiedPort(): Promise<number> {
  busy = createServer();
  await new Promise<void>((resolve) => busy!.listen(0, '127.0.0.1', resolve));
  return (busy.address() as { port: number }).port;
}

describe('a --base-url whose path ends in /api or a route prefix', () => {
  it.each([['check'], ['fuzz']])('%s refuses it with the URL to use instead, before anything is sent', async (command) => {
    const result = await cli.run([command, '--base-url', 'http://127.0.0.1:1/api']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'game-service: --base-url "http://127.0.0.1:1/api" ends in /api, which the spec\'s routes begin with: /api/auth/register would be sent to /api/api/auth/register. Use --base-url http://127.0.0.1:1/ (or pass --keep-base-path',
    );
  });

  it('the proxy refuses such a --target before listening, with the URL to use instead', async () => {
    const result = await cli.run(['proxy', '--target', 'http://127.0.0.1:1/api', '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'game-service: --target "http://127.0.0.1:1/api" ends in /api, which the spec\'s routes begin with: /api/auth/register would be sent to /api/api/auth/register. Use --target http://127.0.0.1:1/ (or pass --keep-base-path',
    );
  });

  it('takes it as it is with --keep-base-path', async () => {
    const result = await cli.run(['check', '--base-url', 'http://127.0.0.1:1/api', '--keep-base-path'], {}, 30_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('game-service check: cannot reach http://127.0.0.1:1/api: ECONNREFUSED');
  });
});

describe('a value that is none of its choices, with the one it likely misspells', () => {
  it.each([
    [
      ['proxy', '--target', 'http://127.0.0.1:1', '--fail-on', 'clients'],
      {},
      '--fail-on "clients" is not one of client, server, any, none; did you mean client?',
    ],
    [['mock', '--log-format', 'jsno'], {}, '--log-format "jsno" is not one of text, json; did you mean json?'],
    [['mock'], { GAME_SERVICE_LOG_FORMAT: 'txt' }, 'GAME_SERVICE_LOG_FORMAT=txt: --log-format "txt" is not one of text, json; did you mean text?'],
  ])('%j %j', async (args, env, message) => {
    const result = await cli.run(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`game-service: ${message}\n`);
  });
});

it('an unknown GAME_SERVICE_ variable is named with the one it likely misspells', async () => {
  const result = await cli.run(['check', '--base-url', 'http://127.0.0.1:1'], { GAME_SERVICE_ONLLY: 'RL-' }, 30_000);
  expect(result.stderr).toContain("game-service: ignoring GAME_SERVICE_ONLLY: 'check' has no --onlly option; did you mean GAME_SERVICE_ONLY?");
});

describe('game-service proxy at start', () => {
  it('says so when its target does not answer, and serves 502s all the same', async () => {
    const proxy = cli.start(['proxy', '--target', 'http://127.0.0.1:9', '--port', '0']);
    const [, url] = await proxy.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await expect
      .poll(() => proxy.stderr, { timeout: 10_000 })
      .toContain(
        'game-service proxy: the target http://127.0.0.1:9/ does not answer (ECONNREFUSED): every request is answered 502 until it does; serving all the same',
      );
    expect((await fetch(`${url}/health`)).status).toBe(502);
  });

  it('says nothing of the kind when it answers', async () => {
    const mock = await startMock(cli, ['--port', '0']);
    const proxy = cli.start(['proxy', '--target', mock.url, '--port', '0']);
    const [, url] = await proxy.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect(proxy.stderr).not.toContain('does not answer');
  });

  it('forwards under a --target ending in /api with --keep-base-path', async () => {
    const mock = await startMock(cli, ['--port', '0']);
    const proxy = cli.start(['proxy', '--target', `${mock.url}/api`, '--keep-base-path', '--port', '0']);
    const [, url] = await proxy.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    expect((await fetch(`${url}/player`)).status).toBe(401);
  });

  it('on a port in use, says it as the mock does', async () => {
    const port = await occupiedPort();
    const result = await cli.run(['proxy', '--target', 'http://127.0.0.1:9', '--port', String(port)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `game-service: cannot start the proxy: 127.0.0.1:${port} is already in use; choose another --port, or --port 0 for a free one`,
    );
  });
});
