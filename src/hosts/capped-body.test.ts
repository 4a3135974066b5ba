import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../core/body.js';
import { CappedBody, declaredOverLimit, overLimitStandIn } from './capped-body.js';

function collected(...sizes: number[]): CappedBody {
  const body = new CappedBody();
  for (const [index, size] of sizes.entries()) body.add(new Uint8Array(size).fill(index + 1));
  return body;
}

describe('CappedBody', () => {
  it('keeps a body of exactly the limit whole, in the order of its chunks', () => {
    const body = collected(3, MAX_BODY_BYTES - 3);
    expect(body.overLimit).toBe(false);
    const bytes = body.bytes();
    expect(bytes.byteLength).toBe(MAX_BODY_BYTES);
    expect([...bytes.subarray(0, 4)]).toEqual([1, 1, 1, 2]);
  });

  it('is over the limit one byte past it, and keeps no more than that byte', () => {
    const body = collected(MAX_BODY_BYTES, 10, 10);
    expect(body.overLimit).toBe(true);
    const bytes = body.bytes();
    expect(bytes.byteLength).toBe(MAX_BODY_BYTES + 1);
    expect(bytes[MAX_BODY_BYTES]).toBe(2);
  });

  it('is empty before any chunk', () => {
    expect(new CappedBody().bytes().byteLength).toBe(0);
  });
});

describe('a declared Content-Length', () => {
  it('is over the limit only past it, and absent is not', () => {
    expect(declaredOverLimit(String(MAX_BODY_BYTES))).toBe(false);
    expect(declaredOverLimit(String(MAX_BODY_BYTES + 1))).toBe(true);
    expect(declaredOverLimit(null)).toBe(false);
    expect(declaredOverLimit(undefined)).toBe(false);
  });

  it('over the limit is stood for by one byte past it', () => {
    expect(overLimitStandIn().byteLength).toBe(MAX_BODY_BYTES + 1);
  });
});
