import { describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../../src/spec/limits.js';
import { bucketKey, categoryOf, countdownStep, isCounted, RateLimitModel, type Caller } from './rate-limit-model.js';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 17, 250);
const external: Caller = { ip: '10.0.0.1', gameOrigin: false };
const game: Caller = { ip: '10.0.0.1', gameOrigin: true };

describe('categories, keys and exemption', () => {
  it('follows the Endpoints table and the Limits table', () => {
    expect(categoryOf('GET', '/health')).toBe('public');
    expect(categoryOf('post', '/api/auth/register')).toBe('auth');
    expect(categoryOf('POST', '/api/auth/verify-email')).toBe('auth');
    expect(categoryOf('GET', '/api/player')).toBe('read');
    expect(categoryOf('POST', '/api/player/ship')).toBe('gameplay');
    expect(categoryOf('GET', '/nowhere')).toBeUndefined();
    expect(['auth', 'admin', 'public', 'read', 'gameplay'].filter((category) => !isCounted(category as 'auth', true))).toEqual(['public', 'read', 'gameplay']);
    expect(bucketKey('auth', { ...external, playerId: 'p' })).toBe('auth ip 10.0.0.1');
    expect(bucketKey('read', { ...external, playerId: 'p' })).toBe('read player p');
    expect(bucketKey('read', external)).toBeUndefined();
  });
});

describe('RateLimitModel', () => {
  it('counts down a bucket, answers 429 once it is spent, and starts afresh after the window', () => {
    const model = new RateLimitModel();
    const register = (atMs: number, caller = external) => model.record({ method: 'POST', path: '/api/auth/register', caller, atMs });
    expect([1, 2, 3, 4, 5].map((i) => register(T0 + i).remaining)).toEqual([4, 3, 2, 1, 0]);
    // Game origins are counted for auth: the sixth request is refused whoever sends it.
    expect(register(T0 + 10, game)).toMatchObject({ limited: true, remaining: 0, windowEndMs: T0 + 1 + 60_000 });
    expect(register(T0 + 60_001)).toMatchObject({ limited: false, remaining: 4, windowEndMs: T0 + 120_001 });
    expect(model.predict({ method: 'POST', path: '/api/auth/register', caller: { ip: '10.0.0.2', gameOrigin: false }, atMs: T0 }).remaining).toBe(4);
  });

  it('does not count exempt game-origin requests, and keeps players apart', () => {
    const model = new RateLimitModel();
    const read = (caller: Caller) => model.record({ method: 'GET', path: '/api/player', caller, atMs: T0 });
    expect(read({ ...external, playerId: 'a' })).toMatchObject({ counted: true, remaining: 59 });
    expect(read({ ...game, playerId: 'a' })).toMatchObject({ counted: false, limited: false, remaining: undefined });
    expect(read({ ...external, playerId: 'a' }).remaining).toBe(58);
    expect(read({ ...external, playerId: 'b' }).remaining).toBe(59);
    expect(read(external)).toMatchObject({ counted: undefined });
    expect(model.record({ method: 'GET', path: '/nowhere', caller: external, atMs: T0 })).toMatchObject({ category: undefined, counted: undefined });
  });

  it('aligns windows to clock minutes when told to, and flags requests at a boundary', () => {
    const model = new RateLimitModel({ alignment: 'clock-minute' });
    const health = (atMs: number) => model.record({ method: 'GET', path: '/health', caller: external, atMs });
    expect(health(T0).windowEndMs).toBe(Date.UTC(2025, 0, 1, 12, 1));
    expect(health(Date.UTC(2025, 0, 1, 12, 1) - 200)).toMatchObject({ remaining: 58, nearBoundary: true });
    expect(health(Date.UTC(2025, 0, 1, 12, 1))).toMatchObject({ remaining: 59, nearBoundary: true, windowEndMs: Date.UTC(2025, 0, 1, 12, 2) });
  });

  it('adopts a bucket that earlier traffic started', () => {
    const model = new RateLimitModel();
    model.sync('public', external, { remaining: 12, atMs: T0, windowEndMs: T0 + 5_000 });
    expect(model.bucket('public', external, T0)).toEqual({ count: RATE_LIMITS.public.limit - 12, remaining: 12, windowEndMs: T0 + 5_000 });
    expect(model.record({ method: 'GET', path: '/health', caller: external, atMs: T0 + 1 }).remaining).toBe(11);
    expect(model.record({ method: 'GET', path: '/health', caller: external, atMs: T0 + 5_000 }).remaining).toBe(59);
  });
});

describe('countdownStep', () => {
  it('wants one less per counted request, or a fresh bucket after a window moved', () => {
    expect(countdownStep(60, 40, 39, false)).toEqual({ kind: 'counted' });
    expect(countdownStep(60, 40, 40, false)).toEqual({ kind: 'unexpected', expected: 39 });
    expect(countdownStep(60, 3, 59, true)).toEqual({ kind: 'new-window' });
    expect(countdownStep(60, 3, 2, true)).toEqual({ kind: 'unexpected', expected: 59 });
  });
});
