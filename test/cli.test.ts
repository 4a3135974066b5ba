import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMock, useCli } from './support/cli.js';
import { call } from './support/http.js';

const cli = useCli();
const USAGE_HINT = "Run 'game-service --help' or 'game-service <command> --help' for the options.";
const MOCK_FLAGS = [
  '--port',
  '--host',
  '--game-origin',
  '--trust-proxy',
  '--config',
  '--control',
  '--control-public',
  '--freeze-clock',
  '--world',
  '--log-format',
  '--verbose',
  '--bot-check',
  '--bot-check-token',
  '--max-wrong-otp-attempts',
];

/** The lines --help gives one flag: from its name to the next flag's. */
function helpEntry(help: string, flag: string): string {
  const lines = help.split('\n');
  const start = lines.findIndex((line) => line.trimStart().startsWith(`${flag} `));
  expect(start, `${flag} in --help`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, index) => index > start && /^\s+--?\w/.test(line));
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

let dir = '';
/** Writes a config file into this run's temporary directory and returns its path. */
function configFile(name: string, contents: string): string {
  const path = join(dir, name);
  writeFileSync(path, contents);
  return path;
}

/** A port some other process already listens on. */
const occupied: Server[] = [];
async function occupiedPort(): Promise<number> {
  const server = createServer();
  occupied.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'game-service-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(occupied.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('game-service --help', () => {
  it('lists the mock command and the global options', async () => {
    const result = await cli.run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('game-service mock');
    expect(result.stdout).toContain('game-service check');
    expect(result.stdout).toContain('--help');
    expect(result.stdout).toContain('--version');
    expect(result.stderr).toBe('');
  });

  it('lists every flag of check, with the exit codes', async () => {
    const result = await cli.run(['check', '--help']);
    expect(result.code).toBe(0);
    const flags = [
      '--base-url',
      '--otp-source',
      '--game-origin',
      '--unverified-token',
      '--source-ips',
      '--forwarded-for',
      '--junit',
      '--json',
      '--seed',
      '--only',
    ];
    for (const flag of flags) expect(result.stdout).toContain(flag);
    expect(result.stdout).toContain('Exit codes: 0 every check passed');
  });

  it('lists every flag of mock, with the environment and precedence notes', async () => {
    const result = await cli.run(['mock', '--help']);
    expect(result.code).toBe(0);
    for (const flag of MOCK_FLAGS) expect(result.stdout).toContain(flag);
    expect(result.stdout).toContain('[default: 8080]');
    expect(result.stdout).toContain('GAME_SERVICE_<FLAG>');
    expect(result.stdout).toContain('Precedence: flags > environment > --config file > defaults.');
    expect(result.stdout).toContain('Only the --config file holds these keys');
    for (const key of ['actionPoints', 'routes', 'ship', 'player', 'journalSize']) expect(result.stdout).toMatch(new RegExp(`^  ${key}: \\S`, 'm'));
    expect(result.stdout).not.toMatch(/^ {2}(port|\$schema) +\S/m);
  });

  it.each([
    ['mock', ['--port', '--max-wrong-otp-attempts', '--fault-seed', '--workers']],
    ['check', ['--seed', '--max-wait', '--request-timeout', '--num-runs']],
    ['fuzz', ['--seed', '--num-runs', '--max-commands', '--max-duration']],
  ])('shows the numeric flags of %s as [number]', async (command, flags) => {
    const result = await cli.run([command, '--help']);
    expect(result.code).toBe(0);
    for (const flag of flags) expect(helpEntry(result.stdout, flag), flag).toContain('[number]');
  });

  it('prints the package version', async () => {
    const result = await cli.run(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });
});

describe('game-service: bad invocations exit 2 with a message', () => {
  it.each([
    ['a port above 65535', ['mock', '--port', '70000'], '--port "70000" is not a port'],
    ['a port that is not a number', ['mock', '--port', 'abc'], '--port "abc" is not a port'],
    // Without a value or with an empty one, the mock must not fall back to 8080 or to a random port.
    ['a port flag without a value', ['mock', '--port', '--host', '127.0.0.1'], /game-service: (--port .* is not a port|Not enough arguments following: port)/],
    ['an empty port', ['mock', '--port', ''], '--port "" is not a port'],
    ['a blank port after =', ['mock', '--port=  '], '--port "  " is not a port'],
    ['a fractional count', ['fuzz', '--num-runs', '2.5'], '--num-runs "2.5" is not a count'],
    ['a game origin with a path', ['mock', '--game-origin', 'http://game.test/play'], '--game-origin "http://game.test/play" is not an origin'],
    ['an unknown flag', ['mock', '--bogus'], /game-service: Unknown flag for mock: --bogus\n/],
    [
      'a misspelt flag, once, with the flag meant',
      ['check', '--base-urll', 'http://x.test'],
      /game-service: Unknown flag for check: --base-urll \(did you mean --base-url\?\)\n/,
    ],
    ['a flag of another command', ['mock', '--seed', '1'], 'Unknown flag for mock: --seed (a flag of check and fuzz, not mock)'],
    ['several unknown flags', ['fuzz', '--bogus', '--max-duraton=5'], 'Unknown flags for fuzz: --bogus, --max-duraton (did you mean --max-duration?)'],
    ['an unknown log format', ['mock', '--log-format', 'xml'], '--log-format "xml" is not one of text, json\n'],
    ['a negative count', ['mock', '--max-wrong-otp-attempts', '-1'], '--max-wrong-otp-attempts "-1" is not a count'],
    [
      'a bot-check token with another mode',
      ['mock', '--bot-check', 'off', '--bot-check-token', 't'],
      '--bot-check-token is only read with --bot-check tokens, not --bot-check off',
    ],
    ['no command', [], 'Name a command: mock, check, fuzz or proxy'],
    ['a base URL that is not http', ['check', '--base-url', 'ftp://example.com'], '--base-url "ftp://example.com" is not an http(s) URL'],
    ['a seed that is not a count', ['check', '--seed', 'abc'], '--seed "abc" is not a count'],
    ['a request timeout of no time', ['check', '--request-timeout', '0'], '--request-timeout "0" must be at least 1'],
    ['an unknown command, naming it and the commands', ['frob'], 'Unknown command "frob"; commands: mock, check, fuzz'],
    ['an unknown command before flags', ['serve', '--port', '0'], 'Unknown command "serve"; commands: mock, check, fuzz'],
    [
      'a misspelt command, with the command meant',
      ['chek', '--base-url', 'http://x.test'],
      'Unknown command "chek"; commands: mock, check, fuzz, proxy; did you mean check?',
    ],
  ] as [string, string[], string | RegExp][])('%s', async (_name, args, message) => {
    const result = await cli.run(args, {}, 60_000);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    if (typeof message === 'string') expect(result.stderr).toContain(`game-service: ${message}`);
    else expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(USAGE_HINT);
  });

  it.each([
    ['mock', 'GAME_SERVICE_PORT', 'abc', '--port "abc" is not a port'],
    ['mock', 'GAME_SERVICE_GAME_ORIGIN', 'http://a.test,game.test', '--game-origin "game.test" is not an origin'],
    ['mock', 'GAME_SERVICE_LOG_FORMAT', 'xml', '--log-format "xml" is not one of text, json'],
    ['mock', 'GAME_SERVICE_TRUST_PROXY', 'maybe', '--trust-proxy "maybe" is not on or off'],
    ['mock', 'GAME_SERVICE_FAULT', 'GET /health 418', '--fault "GET /health 418" is not [METHOD] PATH EFFECT[@PROBABILITY]'],
    ['mock', 'GAME_SERVICE_CONFIG', '/no/such/mock.json', 'cannot read --config /no/such/mock.json: ENOENT'],
    ['mock', 'GAME_SERVICE_WORLD', '/no/such/world.json', 'cannot read --world /no/such/world.json: ENOENT'],
    ['check', 'GAME_SERVICE_SEED', '-1', '--seed "-1" is not a count'],
    ['fuzz', 'GAME_SERVICE_BASE_URL', 'ftp://example.com', '--base-url "ftp://example.com" is not an http(s) URL'],
  ])('%s: an invalid %s, naming the variable', async (command, variable, value, message) => {
    const result = await cli.run([command], { [variable]: value }, 60_000);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`game-service: ${variable}=${value}: ${message}`);
  });

  it('an unreadable --config', async () => {
    const path = join(dir, 'missing.json');
    const result = await cli.run(['mock', '--config', path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`game-service: cannot read --config ${path}: ENOENT`);
  });

  it.each([
    ['is not JSON', '{"port": ', 'is not valid JSON'],
    ['is not an object', '[8080]', 'must hold a JSON object whose keys are the flags'],
    ['holds a bad game origin, naming the key, not the flag', '{"gameOrigin": "game.test"}', ': /gameOrigin "game.test" is not an origin'],
  ])('a --config file that %s', async (_name, contents, message) => {
    const result = await cli.run(['mock', '--config', configFile('bad.json', contents)]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  it('a port already in use, naming the port', async () => {
    const port = await occupiedPort();
    const result = await cli.run(['mock', '--port', String(port)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`game-service: cannot start the mock: 127.0.0.1:${port} is already in use`);
  });
});

describe('game-service mock', () => {
  it('prints its URL, serves /health there and prints each verification code', async () => {
    const { process, url, port } = await startMock(cli, ['--port', '0']);
    expect(port).toBeGreaterThan(0);
    expect(process.stdout).toContain(`Game Service mock 0.1.0 listening on ${url}\n`);
    expect(process.stdout).toContain('  game origins: (none)\n');
    expect(process.stdout).toContain('  client IP:    TCP peer address\n');

    const agent = new Agent();
    try {
      const health = await call(`${url}/health`, { dispatcher: agent });
      expect(health).toMatchObject({ status: 200, body: { success: true, status: 'ok', version: '0.1.0' } });

      const email = 'pilot@example.com';
      const registeredAt = Date.now();
      expect((await call(`${url}/api/auth/register`, { json: { email }, dispatcher: agent })).status).toBe(200);
      const answeredAt = Date.now();
      const [, code = '', expires = ''] = await process.waitForOutput(/^OTP for pilot@example\.com: (\d{6}) \(expires (\S+)\)$/m);
      expect(expires).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      // 15 minutes after the moment the mock took the registration, between sending it and its answer (a second's
      // leeway for the mock's clock, which keeps its own time): however long load makes that moment take.
      expect(Date.parse(expires)).toBeGreaterThanOrEqual(registeredAt + 15 * 60_000 - 1_000);
      expect(Date.parse(expires)).toBeLessThanOrEqual(answeredAt + 15 * 60_000 + 1_000);

      const verified = await call(`${url}/api/auth/verify-email`, { json: { email, otp: code }, dispatcher: agent });
      expect(verified.status).toBe(200);
    } finally {
      await agent.close();
    }
  });

  it('takes flags over environment over --config over defaults', async () => {
    const config = configFile('config.json', JSON.stringify({ port: 0, gameOrigin: ['http://config.test'] }));
    const env = { GAME_SERVICE_GAME_ORIGIN: 'http://env.test,http://env2.test' };

    const fromConfig = await startMock(cli, ['--config', config]);
    expect(fromConfig.process.stdout).toContain('  game origins: http://config.test\n');
    const fromEnv = await startMock(cli, ['--config', config], env);
    expect(fromEnv.process.stdout).toContain('  game origins: http://env.test, http://env2.test\n');
    const fromFlag = await startMock(cli, ['--config', config, '--game-origin', 'http://flag.test'], env);
    expect(fromFlag.process.stdout).toContain('  game origins: http://flag.test\n');
    const fromTrustEnv = await startMock(cli, ['--port', '0'], { GAME_SERVICE_TRUST_PROXY: 'true' });
    expect(fromTrustEnv.process.stdout).toContain('  client IP:    first X-Forwarded-For hop (--trust-proxy)\n');
  });

  it('takes the port from the flag over the environment over the --config file', async () => {
    const busy = await occupiedPort();
    const config = configFile('port.json', JSON.stringify({ port: busy }));

    const fromConfig = await cli.run(['mock', '--config', config]);
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toContain(`127.0.0.1:${busy} is already in use`);
    const fromEnv = await startMock(cli, ['--config', config], { GAME_SERVICE_PORT: '0' });
    expect(fromEnv.port).not.toBe(busy);
    const fromFlag = await startMock(cli, ['--port', '0'], { GAME_SERVICE_PORT: String(busy) });
    expect(fromFlag.port).not.toBe(busy);
    const spacedAfterEquals = await startMock(cli, ['--port= 0 '], { GAME_SERVICE_PORT: String(busy) });
    expect(spacedAfterEquals.port).not.toBe(busy);
  });

  it('reads on/off values such as 1 and yes from the environment and the config file, and rejects others', async () => {
    const fromEnv = await startMock(cli, ['--port', '0'], { GAME_SERVICE_TRUST_PROXY: '1' });
    expect(fromEnv.process.stdout).toContain('  client IP:    first X-Forwarded-For hop (--trust-proxy)\n');
    const fromConfig = await startMock(cli, ['--config', configFile('switch.json', '{"port": 0, "trustProxy": "yes"}')]);
    expect(fromConfig.process.stdout).toContain('  client IP:    first X-Forwarded-For hop (--trust-proxy)\n');
    const offByFlag = await startMock(cli, ['--port', '0', '--no-trust-proxy'], { GAME_SERVICE_TRUST_PROXY: 'on' });
    expect(offByFlag.process.stdout).toContain('  client IP:    TCP peer address\n');
    const rejected = await cli.run(['mock', '--port', '0'], { GAME_SERVICE_TRUST_PROXY: 'maybe' });
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toContain(
      'game-service: GAME_SERVICE_TRUST_PROXY=maybe: --trust-proxy "maybe" is not on or off; expected true or false (or 1/0, yes/no, on/off)',
    );
  });

  it('ignores an unrelated GAME_SERVICE_ variable with a notice', async () => {
    const { process } = await startMock(cli, ['--port', '0'], { GAME_SERVICE_FOO: 'bar' });
    expect(process.stderr).toContain("game-service: ignoring GAME_SERVICE_FOO: 'mock' has no --foo option");
  });

  // SIGTERM, as a service manager sends it to the process, in test/cli-process.test.ts.
  it('stops on SIGINT with exit code 0, closing idle keep-alive connections', async () => {
    const signal = 'SIGINT';
    const { process, url } = await startMock(cli, ['--port', '0']);
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    try {
      expect((await call(`${url}/health`, { dispatcher: agent })).status).toBe(200);
      const signalledAt = Date.now();
      process.signal(signal);
      const exit = await process.waitForExit(30_000);
      expect(exit).toEqual({ code: 0, signal: null });
      // Before the 5 s grace period ends: an idle connection must not hold the shutdown until then.
      expect(Date.now() - signalledAt).toBeLessThan(4_900);
      expect(process.stdout).toContain(`${signal} received: closing connections and stopping.\n`);
      expect(process.stderr).toBe('');
    } finally {
      await agent.close();
    }
  });
});
