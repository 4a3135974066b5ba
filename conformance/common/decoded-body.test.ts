import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodedBody } from './decoded-body.js';

const JSON_TEXT = '{"success":true,"authToken":"3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f"}';
const plain = Buffer.from(JSON_TEXT);
const text = (decoded: ReturnType<typeof decodedBody>) => ('bytes' in decoded ? decoded.bytes.toString('utf8') : decoded);

describe('a body as its sender meant it', () => {
  it.each([
    ['gzip', gzipSync(plain)],
    ['x-gzip', gzipSync(plain)],
    ['deflate', deflateSync(plain)],
    ['br', brotliCompressSync(plain)],
    ['zstd', zstdCompressSync(plain)],
    ['Gzip', gzipSync(plain)],
  ])('decodes %s', (coding, bytes) => {
    expect(text(decodedBody(bytes, coding))).toBe(JSON_TEXT);
  });

  it('reads a raw deflate stream sent as deflate, as some servers do', () => {
    expect(text(decodedBody(deflateRawSync(plain), 'deflate'))).toBe(JSON_TEXT);
  });

  it('undoes several codings, the last applied first, and ignores identity', () => {
    expect(text(decodedBody(brotliCompressSync(gzipSync(plain)), 'gzip, identity, br'))).toBe(JSON_TEXT);
  });

  it('leaves a body without a coding, and an empty one (HEAD, 204, 304), as it is', () => {
    expect(text(decodedBody(plain, undefined))).toBe(JSON_TEXT);
    expect(text(decodedBody(Buffer.alloc(0), 'gzip'))).toBe('');
  });

  it('stops a bomb at the cap, with no more memory than the cap', () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100_000);
    expect(decodedBody(bomb, 'gzip', 1024 * 1024)).toEqual({
      unjudged: 'past the decoded-size cap',
      detail: 'its gzip body decodes to more than 1048576 bytes',
    });
    expect(text(decodedBody(gzipSync(Buffer.alloc(1000)), 'gzip', 1000))).toHaveLength(1000);
  });

  it('says why a corrupt, cut or unknown coding cannot be read', () => {
    expect(decodedBody(Buffer.from('not gzip at all'), 'gzip')).toMatchObject({ unjudged: 'that failed to decode' });
    expect(decodedBody(gzipSync(plain).subarray(0, 12), 'gzip')).toMatchObject({ unjudged: 'that failed to decode' });
    expect(decodedBody(plain, 'compress')).toEqual({ unjudged: 'that failed to decode', detail: 'compress is not a content coding the suite decodes' });
  });
});
