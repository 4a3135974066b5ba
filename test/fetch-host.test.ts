import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.js';
import type { OtpDelivery } from '../src/core/options.js';
import { createService } from '../src/core/service.js';
import { createFetchHandler, type FetchHostOptions } from '../src/hosts/fetch.js';
import { MAX_BODY_BYTES } from '../src/core/body.js';
import { HEADERS, OTP_LIFETIME_MS, RATE_LIMITS } from '../src/spec/limits.js';
import { propertyParameters } from './support/property.js';
import { lastOtpFor, START_MS, startTestServer } from './support/server.js';

const GAME_ORIGIN = 'http://game.test';
const VERSION = '0.1.0';

/** The fetch host over a fresh service configured like test/support/server.ts's node host. */
function fetchMock(options: FetchHostOptions = {}) {
  const clock = new ManualClock(START_MS);
  const otps: OtpDelivery[] = [];
  const service = createService({ version: VERSION, clock, gameOrigins: [GAME_ORIGIN], onOtp: (delivery) => otps.push(delivery) });
  const handle = createFetchHandler(service, options);
  const call = (path: string, init: RequestInit = {}, remoteAddress?: string) => handle(new Request(`http://mock.test${path}`, init), remoteAddress);
  return { clock, otps, service, call };
}

const postJson = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('the fetch host', () => {
  it('signs a client in and serves its player and ship', async () => {
    const mock = fetchMock();
    const email = 'pilot@example.com';
    const registered = await mock.call('/api/auth/register', postJson({ email }));
    expect(registered.status).toBe(200);
    expect(registered.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(registered.headers.get(HEADERS.rateLimitRemaining)).toBe(String(RATE_LIMITS.auth.limit - 1));
    const verified = await mock.call('/api/auth/verify-email', postJson({ email, otp: lastOtpFor(mock.otps, email) }));
    const { authToken } = (await verified.json()) as { authToken: string };
    const bearer = { authorization: `Bearer ${authToken}` };
    expect(await (await mock.call('/api/player', { headers: bearer })).json()).toMatchObject({ player: { email, emailVerified: true } });
    const ship = await mock.call('/api/player/ship', postJson({ name: 'Nomad' }, bearer));
    expect(await ship.json()).toMatchObject({ success: true, ship: { name: 'Nomad' } });
  });

  it('keys rate limits on the remote address, else defaultIp, and trusts X-Forwarded-For only when told', async () => {
    const health = async (mock: ReturnType<typeof fetchMock>, remote?: string, forwardedFor?: string) => {
      const response = await mock.call('/health', forwardedFor === undefined ? {} : { headers: { 'x-forwarded-for': forwardedFor } }, remote);
      return response.headers.get(HEADERS.rateLimitRemaining);
    };
    const plain = fetchMock({ defaultIp: '10.9.9.9' });
    expect([await health(plain), await health(plain, '::ffff:10.0.0.1'), await health(plain, '10.0.0.1', '10.0.0.2'), await health(plain)]).toEqual([
      '59',
      '59',
      '58',
      '58',
    ]);
    const buckets = plain.service.store.buckets.scan(START_MS, 0, 10, 10).entries.map(({ category, key }) => `${category}:${key}`);
    expect(buckets.sort()).toEqual(['public:10.0.0.1', 'public:10.9.9.9']);
    const trusting = fetchMock({ trustForwardedFor: true });
    expect([await health(trusting, '10.0.0.1', '10.0.0.2, 10.0.0.3'), await health(trusting, '10.0.0.1')]).toEqual(['59', '59']);
  });

  it('answers HEAD like GET, without the body', async () => {
    const mock = fetchMock();
    const get = await mock.call('/health');
    const head = await mock.call('/health', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(head.headers.get(HEADERS.rateLimitRemaining)).toBe('58');
  });

  it('opens the control API to loopback and in-process callers only', async () => {
    const mock = fetchMock();
    expect((await mock.call('/__mock/clock')).status).toBe(200);
    expect((await mock.call('/__mock/clock', {}, '127.0.0.1')).status).toBe(200);
    const refused = await mock.call('/__mock/clock', {}, '203.0.113.9');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  it('answers an oversized body 413 without reading all of it', async () => {
    const mock = fetchMock();
    const body = new Uint8Array(4 * MAX_BODY_BYTES).fill(0x20);
    const response = await mock.call('/api/auth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: `Request body exceeds ${MAX_BODY_BYTES} bytes` });
  });
});

type Step =
  | { kind: 'register' | 'verify' | 'wrong-code' | 'player' | 'ship'; who: number; fromGame: boolean; name?: string }
  | { kind: 'health' | 'preflight' | 'bad-json' | 'wrong-method'; fromGame: boolean }
  | { kind: 'unknown'; path: string; fromGame: boolean }
  | { kind: 'advance'; ms: number };

const who = fc.integer({ min: 0, max: 2 });
const fromGame = fc.boolean();
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom('register', 'verify', 'wrong-code', 'player'), who, fromGame }),
  fc.record({ kind: fc.constant('ship'), who, fromGame, name: fc.string({ maxLength: 40 }) }),
  fc.record({ kind: fc.constantFrom('health', 'preflight', 'bad-json', 'wrong-method'), fromGame }),
  fc.record({ kind: fc.constant('unknown'), path: fc.constantFrom('/nowhere', '/api', '/api/player/ship/x', '/__mockx'), fromGame }),
  fc.record({ kind: fc.constant('advance'), ms: fc.constantFrom(1_000, 60_000, OTP_LIFETIME_MS) }),
);

/** One side of the comparison: sends a step's request with its own codes and tokens. */
interface Side {
  send(path: string, init: RequestInit): Promise<Response>;
  otps: OtpDelivery[];
  tokens: Map<number, string>;
}

function request(step: Exclude<Step, { kind: 'advance' }>, side: Side): [string, RequestInit] {
  const origin: Record<string, string> = step.fromGame ? { origin: GAME_ORIGIN } : {};
  const email = 'who' in step ? `p${step.who}@example.com` : '';
  const bearer = 'who' in step ? { authorization: `Bearer ${side.tokens.get(step.who) ?? '00000000-0000-4000-8000-000000000000'}` } : {};
  const code = side.otps.findLast((delivery) => delivery.email === email)?.code ?? '123456';
  switch (step.kind) {
    case 'register':
      return ['/api/auth/register', postJson({ email }, origin)];
    case 'verify':
      return ['/api/auth/verify-email', postJson({ email, otp: code }, origin)];
    case 'wrong-code':
      return ['/api/auth/verify-email', postJson({ email, otp: code === '000000' ? '000001' : '000000' }, origin)];
    case 'player':
      return ['/api/player', { headers: { ...bearer, ...origin } }];
    case 'ship':
      return ['/api/player/ship', postJson({ name: step.name }, { ...bearer, ...origin })];
    case 'health':
      return ['/health', { headers: origin }];
    case 'preflight':
      return ['/api/player', { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'GET' } }];
    case 'bad-json':
      return ['/api/auth/register', { method: 'POST', headers: { 'content-type': 'application/json', ...origin }, body: '{"email":' }];
    case 'wrong-method':
      return ['/health', { method: 'PUT', headers: origin }];
    case 'unknown':
      return [step.path, { headers: origin }];
  }
}

const COMPARED_HEADERS = [
  'content-type',
  'content-length',
  'vary',
  'allow',
  'cache-control',
  ...Object.values(HEADERS),
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The name a ship gets without one of its own: its random id's first characters. */
const DEFAULT_SHIP_NAME = /^Ship [0-9a-f]{8}$/;

/** A random id, or a value made of one, as one placeholder: each service draws its own. */
const blankRandom = (_key: string, value: unknown) =>
  typeof value !== 'string' ? value : UUID.test(value) ? '<uuid>' : DEFAULT_SHIP_NAME.test(value) ? 'Ship <uuid>' : value;

/** What a client can observe of an answer, with the random ids and tokens of each service, and names made of them, blanked. */
async function observe(response: Response, step: Step, side: Side) {
  const text = await response.text();
  const body: unknown = text === '' ? undefined : JSON.parse(text);
  const token = (body as { authToken?: unknown } | undefined)?.authToken;
  if (step.kind === 'verify' && typeof token === 'string' && 'who' in step) side.tokens.set(step.who, token);
  const headers = Object.fromEntries(COMPARED_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)]] : [])));
  return {
    status: response.status,
    headers,
    body: JSON.parse(text === '' ? 'null' : text, blankRandom),
  };
}

describe('the fetch host and the node host', () => {
  it('answer the same sequence of requests alike: status, body and the headers a client reads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 25 }), async (steps) => {
        const server = await startTestServer({ gameOrigins: [GAME_ORIGIN] });
        try {
          const inProcess = fetchMock();
          const overHttp: Side = { send: (path, init) => fetch(`${server.url}${path}`, init), otps: server.otps, tokens: new Map() };
          const viaFetchHost: Side = { send: (path, init) => inProcess.call(path, init), otps: inProcess.otps, tokens: new Map() };
          for (const step of steps) {
            if (step.kind === 'advance') {
              server.clock.advance(step.ms);
              inProcess.clock.advance(step.ms);
              continue;
            }
            const [nodeAnswer, fetchAnswer] = await Promise.all(
              [overHttp, viaFetchHost].map(async (side) => observe(await side.send(...request(step, side)), step, side)),
            );
            expect({ step, ...fetchAnswer }).toEqual({ step, ...nodeAnswer });
          }
        } finally {
          await server.close();
        }
      }),
      propertyParameters('fetch host = node host', 40),
    );
  });
});
