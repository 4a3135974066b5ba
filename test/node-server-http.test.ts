import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../src/core/body.js';
import { call, header, parseRawResponse, sendRaw } from './support/http.js';
import { useResources } from './support/resources.js';

const resources = useResources();

/** A JSON object of exactly `size` bytes, valid apart from its size. */
function jsonOfSize(size: number): string {
  const prefix = '{"email":"a@example.com","pad":"';
  return `${prefix}${'x'.repeat(size - prefix.length - 2)}"}`;
}

/** A stream of the text in chunks: undici sends it without content-length, chunked. */
function chunksOf(text: string, chunkSize: number): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < text.length; i += chunkSize) chunks.push(Buffer.from(text.slice(i, i + chunkSize)));
  return Readable.from(chunks);
}

describe('node:http host: request bodies', () => {
  it('answers a body over 64 KiB with a 413 envelope (content-length)', async () => {
    const { url, server } = await resources.server();
    const framing: (string | undefined)[] = [];
    server.on('request', (request) => framing.push(request.headers['content-length']));
    const agent = resources.agent();
    const response = await call(`${url}/api/auth/register`, {
      body: jsonOfSize(MAX_BODY_BYTES + 1),
      headers: { 'content-type': 'application/json' },
      dispatcher: agent,
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: `Request body exceeds ${MAX_BODY_BYTES} bytes` });
    expect(header(response, 'content-type')).toBe('application/json; charset=utf-8');
    expect(header(response, 'connection')).toBe('close');
    expect((await call(`${url}/health`, { dispatcher: agent })).status).toBe(200);
    expect(framing[0]).toBe(String(MAX_BODY_BYTES + 1));
  });

  it('answers a chunked body over 64 KiB with a 413 envelope', async () => {
    const { url, server } = await resources.server();
    const framing: (string | undefined)[] = [];
    server.on('request', (request) => framing.push(request.headers['transfer-encoding']));
    const agent = resources.agent();
    const response = await call(`${url}/api/auth/register`, {
      body: chunksOf(jsonOfSize(MAX_BODY_BYTES + 1), 8_192),
      headers: { 'content-type': 'application/json' },
      dispatcher: agent,
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: `Request body exceeds ${MAX_BODY_BYTES} bytes` });
    expect(header(response, 'connection')).toBe('close');
    expect((await call(`${url}/health`, { dispatcher: agent })).status).toBe(200);
    expect(framing[0]).toBe('chunked');
  });

  it('accepts a body of exactly 64 KiB', async () => {
    const { url, otps } = await resources.server();
    const response = await call(`${url}/api/auth/register`, {
      body: chunksOf(jsonOfSize(MAX_BODY_BYTES), 8_192),
      headers: { 'content-type': 'application/json' },
      dispatcher: resources.agent(),
    });
    expect(response.status).toBe(200);
    expect(otps.map((otp) => otp.email)).toEqual(['a@example.com']);
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    const { url } = await resources.server();
    const response = await call(`${url}/api/auth/register`, {
      body: '{"email": ',
      headers: { 'content-type': 'application/json' },
      dispatcher: resources.agent(),
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Request body is not valid JSON' });
    expect(header(response, 'x-ratelimit-remaining')).toBe('4');
  });
});

describe('node:http host: routing over the socket', () => {
  it('answers an unknown path with 404 and a wrong method with 405 and Allow', async () => {
    const { url } = await resources.server();
    const agent = resources.agent();

    const missing = await call(`${url}/api/nowhere?x=1`, { dispatcher: agent });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'No route for /api/nowhere' });

    const wrongMethod = await call(`${url}/health`, { method: 'DELETE', dispatcher: agent });
    expect(wrongMethod.status).toBe(405);
    expect(header(wrongMethod, 'allow')).toBe('GET, HEAD');
    expect(wrongMethod.body).toEqual({ error: expect.stringContaining('DELETE is not allowed on /health') });

    const postOnRead = await call(`${url}/api/player`, { json: {}, dispatcher: agent });
    expect(postOnRead.status).toBe(405);
    expect(header(postOnRead, 'allow')).toBe('GET, HEAD');
    // Both count against the public bucket by IP.
    expect(header(postOnRead, 'x-ratelimit-remaining')).toBe('57');
  });

  it('answers malformed HTTP with a 400 JSON envelope and keeps serving', async () => {
    const { url, port } = await resources.server();
    const raw = parseRawResponse(await sendRaw(port, 'GARBAGE\r\n\r\n'));

    expect(raw.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(raw.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(raw.headers['connection']).toBe('close');
    expect(raw.headers['content-length']).toBe(String(Buffer.byteLength(raw.body)));
    expect(JSON.parse(raw.body)).toEqual({ error: 'Malformed HTTP request' });

    const health = await call(`${url}/health`, { dispatcher: resources.agent() });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok' });
  });

  it('answers oversized request headers with a 431 JSON envelope', async () => {
    const { port } = await resources.server();
    const raw = parseRawResponse(await sendRaw(port, `GET /health HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(raw.statusLine).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(raw.body)).toEqual({ error: 'Request headers are too large' });
  });
});

describe('node:http host: CORS for game origins', () => {
  const GAME = 'http://game.test';

  it('answers a game-origin preflight with 204 and the CORS grant, without counting it', async () => {
    const { url } = await resources.server({ gameOrigins: [GAME] });
    const agent = resources.agent();
    const before = await call(`${url}/health`, { dispatcher: agent });
    expect(header(before, 'x-ratelimit-remaining')).toBe('59');

    const preflight = await call(`${url}/api/player/ship`, {
      method: 'OPTIONS',
      headers: { origin: GAME, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      dispatcher: agent,
    });
    expect(preflight.status).toBe(204);
    expect(preflight.text).toBe('');
    expect(header(preflight, 'access-control-allow-origin')).toBe(GAME);
    expect(header(preflight, 'access-control-allow-methods')).toBe('POST');
    expect(header(preflight, 'access-control-allow-headers')?.toLowerCase().split(/,\s*/)).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    // Expose-Headers matters on actual responses only (the service's unit tests cover those).
    expect(header(preflight, 'access-control-expose-headers')).toBeUndefined();
    expect(header(preflight, 'vary')).toBe('Origin');
    expect(header(preflight, 'x-ratelimit-remaining')).toBeUndefined();

    for (let i = 0; i < 3; i++) {
      const again = await call(`${url}/health`, { method: 'OPTIONS', headers: { origin: GAME }, dispatcher: agent });
      expect(again.status).toBe(204);
    }
    const after = await call(`${url}/health`, { dispatcher: agent });
    expect(header(after, 'x-ratelimit-remaining')).toBe('58');
  });

  it('grants CORS on game-origin responses, exempts them from the public bucket, and not other origins once CORS origins are listed', async () => {
    const { url } = await resources.server({ gameOrigins: [GAME], corsOrigins: ['http://localhost:5173'] });
    const agent = resources.agent();

    const game = await call(`${url}/health`, { headers: { origin: GAME }, dispatcher: agent });
    expect(game.status).toBe(200);
    expect(header(game, 'access-control-allow-origin')).toBe(GAME);
    expect(header(game, 'x-ratelimit-remaining')).toBeUndefined();

    const stranger = await call(`${url}/health`, { method: 'OPTIONS', headers: { origin: 'http://evil.test' }, dispatcher: agent });
    expect(stranger.status).toBe(405);
    expect(header(stranger, 'access-control-allow-origin')).toBeUndefined();
    expect(header(stranger, 'x-ratelimit-remaining')).toBe('59');
  });
});
