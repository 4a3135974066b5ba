import { describe, expect, it } from 'vitest';
import { tokenCandidates } from './refresh-probes.js';

describe('tokenCandidates', () => {
  const sent = '7d2c7b0e-52b5-4a8f-9f57-0d0d3b8f4a11';

  it('finds token-like strings at any depth, the sent token aside in any case', () => {
    const renewed = 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';
    expect(tokenCandidates({ success: true, data: { tokens: [renewed, sent.toUpperCase()] } }, sent)).toEqual([renewed]);
    expect(tokenCandidates({ accessToken: 'eyJhbGciOiJIUzI1NiJ9.e30.sig' }, sent)).toEqual(['eyJhbGciOiJIUzI1NiJ9.e30.sig']);
  });

  it('ignores words, messages and short values', () => {
    expect(tokenCandidates({ error: 'No route for /api/auth/refresh', status: 'ok', code: 'short' }, sent)).toEqual([]);
  });
});
