import fc from 'fast-check';
import { ROUTES } from '../../src/spec/routes.js';

/** One raw HTTP/1.x request (it asks to close the connection after the answer), and whether its framing is complete. */
export interface RawRequest {
  bytes: Buffer;
  /** False when the request declares bytes it does not send: the client then ends its side, as a client that gives up. */
  complete: boolean;
}

const CONTROL_PATHS = [
  '/__mock/clock',
  '/__mock/buckets',
  '/__mock/players',
  '/__mock/outbox',
  '/__mock/journal',
  '/__mock/reset',
  '/__mock/world',
  '/__mock/scenarios/rate-limited',
  '/__mock/players/a%40example.com/action-points',
  '/__mock/players/%E0%A4%A/encounter',
];
const QUERIES = ['', '?limit=1', '?limit=0', '?cursor=99999999999999999999', '?email=%ED%A0%80', '?category=auth&key=1.2.3.4', '?status=abc', '?%zz'];

const method = fc.oneof(
  { weight: 16, arbitrary: fc.constantFrom('GET', 'POST', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH') },
  { weight: 1, arbitrary: fc.constantFrom('get', 'CONNECT', 'TRACE', 'PRI', 'FOO', 'M-SEARCH', '') },
);
const path = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ROUTES.map((route) => route.path)) },
  { weight: 2, arbitrary: fc.constantFrom(...CONTROL_PATHS) },
  fc.webPath().map((webPath) => (webPath.startsWith('/') ? webPath : `/${webPath}`)),
  fc.string({ maxLength: 60, unit: 'binary' }).map((text) => `/${encodeURI(text.toWellFormed())}`),
  fc.constantFrom('*', 'http://127.0.0.1/health', '//health', '/health/../api/player', '/%00', '/api/%', `/${'a'.repeat(9_000)}`),
);
const target = fc.tuple(path, fc.constantFrom(...QUERIES)).map(([p, q]) => `${p}${q}`);
const version = fc.oneof(
  { weight: 12, arbitrary: fc.constant('HTTP/1.1') },
  { weight: 2, arbitrary: fc.constant('HTTP/1.0') },
  { weight: 1, arbitrary: fc.constantFrom('HTTP/2.0', 'HTTP/1.1 ', 'HTTP/0.9', 'http/1.1') },
);

/** Strings that reach the core's rules: emails, codes and names, weird ones included (lone surrogates, controls, long). */
const field = fc.oneof(
  fc.emailAddress(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('a\ud800b@example.com', '\udfff', 'a@mailinator.com', '123456', '', ' ', 'x'.repeat(300), 'A@EXAMPLE.COM'),
);
const value = fc.oneof(field, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));
const jsonObject = fc.record(
  {
    email: fc.oneof({ weight: 3, arbitrary: field }, value),
    otp: fc.oneof(fc.stringMatching(/^\d{6}$/), value),
    challengeToken: value,
    name: value,
    advanceMs: fc.oneof(fc.integer(), fc.constantFrom(1e300, -1, 2 ** 53, 1e15)),
    set: fc.oneof(
      fc.date({ noInvalidDate: false }).map((date) => (Number.isNaN(date.getTime()) ? 'x' : date.toISOString())),
      fc.string(),
    ),
    frozen: value,
    points: value,
    players: fc.oneof(value, fc.array(fc.record({ email: field, token: fc.oneof(fc.uuid(), field) }, { requiredKeys: ['email'] }), { maxLength: 3 })),
    parts: fc.oneof(value, fc.array(fc.constantFrom('buckets', 'players', 'outbox', 'journal', 'clock', 'x'), { maxLength: 3 })),
    category: fc.oneof(fc.constantFrom('auth', 'public', 'read', 'gameplay', 'admin'), field),
    key: fc.oneof(fc.ipV4(), field),
  },
  { requiredKeys: [] },
);

/** A body as bytes: JSON in UTF-8 (lone surrogates escaped by JSON), UTF-16, or arbitrary bytes. */
const body = fc.oneof(
  { weight: 6, arbitrary: jsonObject.map((object) => Buffer.from(JSON.stringify(object), 'utf8')) },
  { weight: 1, arbitrary: jsonObject.map((object) => Buffer.from(JSON.stringify(object), 'utf16le')) },
  { weight: 1, arbitrary: fc.jsonValue().map((json) => Buffer.from(JSON.stringify(json) ?? 'null', 'utf8')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.constantFrom(Buffer.alloc(0), Buffer.from('{"email":"a\\ud800b@example.com"}'), Buffer.from([0x7b, 0xff, 0xfe, 0x7d])) },
);

const headerValue = fc.oneof(
  fc.string({ maxLength: 40 }).map((text) => text.replace(/[\r\n]/g, '')),
  fc.constantFrom('', ' ', 'application/json', 'text/plain', 'application/json; charset=utf-16', 'gzip', 'chunked', '-1', '1e3'),
);
const headers = fc.record(
  {
    host: fc.oneof(fc.constantFrom('localhost', '127.0.0.1', '[::1]', 'evil.test', ''), headerValue),
    'content-type': fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=utf-16le',
      'text/plain',
      'application/x-www-form-urlencoded',
      '',
    ),
    'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x'),
    authorization: fc.oneof(
      fc.uuid().map((uuid) => `Bearer ${uuid}`),
      fc.constantFrom('Bearer', 'Bearer 00000000-0000-4000-8000-000000000001', 'Basic abc'),
      headerValue,
    ),
    origin: fc.oneof(fc.constantFrom('http://game.test', 'http://localhost:3000', 'null'), headerValue),
    'x-forwarded-for': fc.oneof({ weight: 6, arbitrary: fc.ipV4() }, fc.ipV6(), fc.constantFrom('unknown', '1.2.3.4:80', `${'9'.repeat(5_000)}`), headerValue),
    'transfer-encoding': fc.constantFrom('chunked', 'gzip, chunked', 'identity', 'chunked, gzip'),
    // Any octet a header value may hold (obs-text included), and now and then one it may not.
    'x-junk': fc.oneof(
      {
        weight: 19,
        arbitrary: fc
          .uint8Array({ maxLength: 40 })
          .map((bytes) => Buffer.from(bytes.filter((byte) => byte === 9 || (byte >= 0x20 && byte !== 0x7f))).toString('latin1')),
      },
      fc.constantFrom('\0', '\x7f', '\x01'),
    ),
  },
  // A forwarded address on most requests: each client has its own buckets, so that few answers are 429.
  { requiredKeys: ['x-forwarded-for'] },
);

type Framing = 'content-length' | 'chunked' | 'none' | 'wrong-length' | 'bad-chunk';
const framing = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Framing>('content-length') },
  { weight: 2, arbitrary: fc.constantFrom<Framing>('chunked', 'none') },
  { weight: 1, arbitrary: fc.constantFrom<Framing>('wrong-length', 'bad-chunk') },
);

/** A whole request: line, headers and body with the framing chosen (some deliberately broken). */
export const rawRequest: fc.Arbitrary<RawRequest> = fc
  .record({ method, target, version, headers, body, framing })
  .map(({ method: m, target: t, version: v, headers: h, body: b, framing: f }) => {
    const lines = [`${m} ${t} ${v}`, 'connection: close'];
    const chosen: Record<string, string> = { ...h };
    if (f !== 'chunked' && f !== 'bad-chunk') delete chosen['transfer-encoding'];
    for (const [name, text] of Object.entries(chosen)) lines.push(`${name}: ${text}`);
    let payload = b;
    let complete = true;
    if (f === 'content-length') lines.push(`content-length: ${b.length}`);
    if (f === 'wrong-length') {
      lines.push(`content-length: ${b.length + 10}`);
      complete = false;
    }
    if (f === 'chunked' || f === 'bad-chunk') {
      lines.push('transfer-encoding: chunked');
      payload =
        f === 'chunked'
          ? Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n0\r\n\r\n')])
          : Buffer.concat([Buffer.from('zz\r\n'), b]);
      // A second Transfer-Encoding of the generated headers may leave the framing open.
      if (f === 'bad-chunk' || chosen['transfer-encoding'] !== undefined) complete = false;
    }
    return { bytes: Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]), complete };
  });
