import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../core/journal.js';
import { createJsonLogger, createTextLogger, type StartupInfo } from './logger.js';

const INFO: StartupInfo = {
  version: '1.2.3',
  url: 'http://127.0.0.1:8080',
  address: '0.0.0.0:8080',
  gameOrigins: [],
  corsOrigins: 'any',
  trustProxy: false,
  control: { enabled: true, public: false, url: 'http://127.0.0.1:8080/__mock' },
  clock: { frozen: true, now: '2026-01-01T00:00:00.000Z' },
  world: { players: 2, source: 'world.json' },
  botCheck: 'off',
  variants: { names: ['wrong-code-401', 'auth-before-routing'], seed: 7 },
  faults: { rules: [], seed: 7 },
  store: 'state file mock.db',
};
const DELIVERY = { email: 'a@example.com', code: '042517', issuedAt: Date.UTC(2026, 0, 1), expiresAt: Date.UTC(2026, 0, 1, 0, 15) };
const ENTRY: JournalEntry = {
  atMs: Date.parse('2026-01-01T00:00:00.000Z'),
  method: 'GET',
  path: '/api/player',
  status: 200,
  category: 'read',
  route: 'getPlayer',
  unknownFields: null,
  ip: '127.0.0.1',
  origin: null,
  playerId: 'p1',
  fault: null,
  generalisedFrom: null,
  requestHeaders: {},
  requestBody: null,
};

function capture() {
  const lines = { stdout: [] as string[], stderr: [] as string[] };
  return {
    lines,
    streams: { stdout: { write: (text: string) => lines.stdout.push(text) }, stderr: { write: (text: string) => lines.stderr.push(text) } },
  };
}

describe('text logger', () => {
  it('prints the banner for a person, its first line unchanged', () => {
    const { lines, streams } = capture();
    createTextLogger(streams).listening(INFO);
    expect(lines.stdout.join('')).toBe(
      [
        'Game Service mock 1.2.3 listening on http://127.0.0.1:8080',
        '  bound to:     0.0.0.0:8080',
        '  game origins: (none)',
        '  CORS:         any origin (--cors-origin restricts it)',
        '  client IP:    TCP peer address',
        '  control API:  http://127.0.0.1:8080/__mock (loopback clients only)',
        '  clock:        frozen at 2026-01-01T00:00:00.000Z',
        '  world:        2 players from world.json',
        '  bot check:    off',
        '  variants:     wrong-code-401, auth-before-routing (random, seed 7: --variant random:7 plays them again)',
        '  faults:       (none)',
        '  fault seed:   7 (--fault-seed 7 replays the same draws)',
        '  state:        state file mock.db',
        '  Verification codes are printed here. Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
  });

  it('prints codes, requests and stops as one line each, and errors on stderr', () => {
    const { lines, streams } = capture();
    const logger = createTextLogger(streams);
    logger.otp(DELIVERY);
    logger.request(ENTRY);
    logger.request({ ...ENTRY, path: '/nowhere', status: 404, category: null });
    logger.request({ ...ENTRY, status: 503, category: null, fault: ['latency 20 ms', 'status 503'] });
    logger.stopping('SIGINT');
    logger.error(new Error('boom'));
    expect(lines.stdout).toEqual([
      'OTP for a@example.com: 042517 (expires 2026-01-01T00:15:00.000Z)\n',
      'GET /api/player 200 read 127.0.0.1\n',
      'GET /nowhere 404 - 127.0.0.1\n',
      'GET /api/player 503 - 127.0.0.1 fault: latency 20 ms, status 503\n',
      'SIGINT received: closing connections and stopping.\n',
    ]);
    expect(lines.stderr.join('')).toMatch(/^Unexpected error while handling a request: Error: boom\n {4}at /);
  });
});

describe('json logger', () => {
  it('writes one JSON object per line, each with an event', () => {
    const { lines, streams } = capture();
    const logger = createJsonLogger(streams.stdout);
    logger.listening({ ...INFO, world: undefined });
    logger.otp(DELIVERY);
    logger.request(ENTRY);
    logger.error(new Error('boom'));
    logger.stopping('SIGTERM');
    expect(lines.stdout.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    const [listening, otp, request, error, stopping] = lines.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(listening).toMatchObject({
      level: 'info',
      event: 'listening',
      url: INFO.url,
      address: '0.0.0.0:8080',
      version: '1.2.3',
      control: INFO.control,
      world: null,
    });
    expect(listening!['time']).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(otp).toMatchObject({ event: 'otp', email: 'a@example.com', code: '042517', expiresAt: '2026-01-01T00:15:00.000Z' });
    expect(request).toMatchObject({ event: 'request', method: 'GET', path: '/api/player', status: 200, category: 'read', ip: '127.0.0.1' });
    expect(error).toMatchObject({ level: 'error', event: 'error', err: { type: 'Error', message: 'boom' } });
    expect(stopping).toMatchObject({ event: 'stopping', signal: 'SIGTERM' });
  });

  it('tells of a store outage and of its end, at error and info level', () => {
    const { lines, streams } = capture();
    const logger = createJsonLogger(streams.stdout);
    logger.store({ available: false, reason: 'connect ECONNREFUSED' });
    logger.store({ available: true });
    const [down, back] = lines.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(down).toMatchObject({ level: 'error', event: 'store', available: false, reason: 'connect ECONNREFUSED' });
    expect(back).toMatchObject({ level: 'info', event: 'store', available: true });
  });

  it('reports the control URL only when the control API is on', () => {
    const { lines, streams } = capture();
    createJsonLogger(streams.stdout).listening({ ...INFO, control: { ...INFO.control, enabled: false } });
    expect(JSON.parse(lines.stdout[0]!)).toMatchObject({ control: { enabled: false, url: null } });
  });
});
