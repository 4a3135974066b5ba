import { describe, expect, it } from 'vitest';
import { constantTimeEqual, hashSecret, randomOtp, randomSalt, randomToken } from './secrets.js';

describe('secrets', () => {
  it('draws zero-padded 6-digit codes covering every leading digit', () => {
    const codes = Array.from({ length: 2_000 }, randomOtp);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes.map((code) => code[0])).size).toBe(10);
  });

  it('draws UUID v4 tokens', () => {
    expect(randomToken()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('hashes the same secret differently under different salts', async () => {
    const [a, b] = await Promise.all([hashSecret(randomSalt(), '123456'), hashSecret(randomSalt(), '123456')]);
    expect(constantTimeEqual(a, b)).toBe(false);
  });

  it('compares byte arrays by content and length', () => {
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false);
  });
});
