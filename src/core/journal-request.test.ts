import { describe, expect, it } from 'vitest';
import type { ServiceRequest } from './http.js';
import { keptRequest, MAX_KEPT_BODY_BYTES, MAX_KEPT_HEADER_CHARS, MAX_KEPT_HEADERS } from './journal-request.js';

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const request = (headers: ServiceRequest['headers'], body?: Uint8Array): ServiceRequest => ({ method: 'POST', path: '/api/x', headers, body, ip: '127.0.0.1' });

describe('what the journal keeps of a request', () => {
  it('keeps the headers as sent, credentials masked but for their scheme and first characters', () => {
    const { requestHeaders } = keptRequest(
      request({
        authorization: 'Bearer 0b9c7f3e-8d2a-4c1b-9e6f-5a4d3c2b1a00',
        cookie: 'session=abcdefghijklmnop',
        'content-type': 'application/json',
        'x-trace': ['a', 'b'],
        'x-left-out': undefined,
      }),
    );
    expect(requestHeaders).toEqual({ authorization: 'Bearer 0b9c7f3e-…', cookie: 'session=abcdefgh…', 'content-type': 'application/json', 'x-trace': 'a, b' });
  });

  it('masks codes and tokens in a JSON body, as strings or numbers, and keeps the rest as sent (an error code too)', () => {
    const body = {
      email: 'pilot@example.com',
      otp: '123456',
      code: 654321,
      challengeToken: 'tok "quoted"',
      ship: { authToken: '0b9c7f3e-8d2a-4c1b-9e6f-5a4d3c2b1a00' },
      name: 'Nomad',
      error: { code: 'RATE_LIMITED' },
    };
    expect(JSON.parse(keptRequest(request({}, json(body))).requestBody!)).toEqual({
      email: 'pilot@example.com',
      otp: '…',
      code: '…',
      challengeToken: '…',
      ship: { authToken: '0b9c7f3e…' },
      name: 'Nomad',
      error: { code: 'RATE_LIMITED' },
    });
    expect(keptRequest(request({}, new TextEncoder().encode('plain text'))).requestBody).toBe('plain text');
    expect(keptRequest(request({})).requestBody).toBeNull();
    expect(keptRequest(request({}, new Uint8Array())).requestBody).toBeNull();
  });

  it('bounds an entry: the body cut after 4 KiB with a mark, at most 32 headers of at most 256 characters', () => {
    const long = keptRequest(request({}, new TextEncoder().encode('é'.repeat(MAX_KEPT_BODY_BYTES)))).requestBody!;
    expect(long.endsWith('…')).toBe(true);
    expect(new TextEncoder().encode(long).byteLength).toBeLessThanOrEqual(MAX_KEPT_BODY_BYTES + 3);
    expect(long.isWellFormed()).toBe(true);
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`x-h${index}`, 'v'.repeat(1000)]));
    const { requestHeaders } = keptRequest(request(many));
    expect(Object.keys(requestHeaders)).toHaveLength(MAX_KEPT_HEADERS);
    expect(requestHeaders['x-h0']).toBe(`${'v'.repeat(MAX_KEPT_HEADER_CHARS)}…`);
  });
});
