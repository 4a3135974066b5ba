import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedRequest } from './bounded-answer.js';
import { escapedJson, RequestFramings } from './framing.js';

const JSON_TEXT = '{"status":"ok","version":"1.0.0"}';

/** Answers by path: the body coded as it names, with or without the Content-Encoding that says so. */
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const answers: Record<string, [Buffer | string, string | undefined]> = {
      '/gzip': [gzipSync(JSON_TEXT), 'gzip'],
      '/br': [brotliCompressSync(JSON_TEXT), 'br'],
      '/gzip-unlabelled': [gzipSync(JSON_TEXT), undefined],
      '/plain': [JSON_TEXT, undefined],
    };
    const [body, coding] = answers[request.url ?? ''] ?? ['{}', undefined];
    response.writeHead(200, { 'content-type': 'application/json', ...(coding === undefined ? {} : { 'content-encoding': coding }) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('an answer as a client that asked for a coding reads it', () => {
  it('is decoded as its Content-Encoding says', async () => {
    for (const path of ['/gzip', '/br', '/plain']) expect((await boundedRequest(`${base}${path}`, { method: 'GET' }, 5_000)).text, path).toBe(JSON_TEXT);
  });

  it('is read as sent where no Content-Encoding says it is coded: compressed bytes are no JSON body', async () => {
    const { text } = await boundedRequest(`${base}/gzip-unlabelled`, { method: 'GET' }, 5_000);
    expect(() => JSON.parse(text)).toThrow();
  });
});

describe('RequestFramings', () => {
  it('brings every Content-Type with every Accept-Encoding, in plain and escaped JSON, round within 32 requests, from any offset', () => {
    for (const seed of [0, 7, 2_147_483_646]) {
      const framings = new RequestFramings(seed);
      const seen = new Set(Array.from({ length: 32 }, () => JSON.stringify(framings.next())));
      expect(seen.size, `seed ${seed}`).toBe(32);
    }
  });

  it('escapes JSON into text that parses to the same value', () => {
    const value = { email: 'pilot/1@example.com', name: 'Zoë 🚀', otp: '012345', nested: [{ path: '/api/x' }] };
    const escaped = escapedJson(JSON.stringify(value));
    expect(escaped).not.toMatch(/@|ë|[^\\]\//u);
    expect(escaped).toContain('\\u0040');
    expect(JSON.parse(escaped)).toEqual(value);
  });
});
