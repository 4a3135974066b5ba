import { describe, expect, it } from 'vitest';
import { maskedBody, maskedHeaderValue, maskedUrl } from './secrets.js';

describe('secrets as the journal and the reports show them', () => {
  it('masks a code of digits, as a string or a number, and keeps a code of words (an error code)', () => {
    expect(maskedBody('{"otp":"123456","code": 654321,"error":{"code":"RATE_LIMITED"},"retry":12}')).toBe(
      '{"otp":"…","code": "…","error":{"code":"RATE_LIMITED"},"retry":12}',
    );
  });

  it('keeps the start of a long secret, so that two tokens stay apart, and nothing of a short one', () => {
    expect(maskedBody('{"authToken":"0b9c7f3e-8d2a-4c1b-9e6f-5a4d3c2b1a00","challengeToken":"abc"}')).toBe('{"authToken":"0b9c7f3e…","challengeToken":"…"}');
    expect(maskedHeaderValue('authorization', 'Bearer 0b9c7f3e-8d2a-4c1b-9e6f-5a4d3c2b1a00')).toBe('Bearer 0b9c7f3e-…');
  });

  it('masks cookie values but not their attributes, keys, and secret query parameters', () => {
    expect(maskedHeaderValue('cookie', 'session=abcdefghijklmnop; theme=dark')).toBe('session=abcdefgh…; theme=…');
    expect(maskedHeaderValue('set-cookie', 'session=abcdefghijklmnop; Path=/; HttpOnly')).toBe('session=abcdefgh…; Path=/; HttpOnly');
    expect(maskedHeaderValue('x-api-key', 'k1')).toBe('…');
    expect(maskedHeaderValue('content-type', 'application/json')).toBe('application/json');
    expect(maskedUrl('http://h/api/player?token=0b9c7f3e-8d2a-4c1b&page=2')).toBe('http://h/api/player?token=0b9c7f3e%E2%80%A6&page=2');
    expect(maskedUrl('http://h/api/player?page=2')).toBe('http://h/api/player?page=2');
  });
});
