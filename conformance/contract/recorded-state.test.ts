import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../src/spec/recorded-session.js';
import { RecordedState } from './recorded-state.js';

const request = (method: string, path: string, status: number, body?: unknown): RecordedRequest => ({
  method,
  path,
  route: `${method} ${path}`,
  status,
  ...(body === undefined ? {} : { body }),
});

/** A new player's first ship refused until an operator gave it a slot, then made, then read and moved. */
const SESSION = [
  request('POST', '/api/player/ship', 403, { name: 'Nomad' }),
  request('POST', '/api/player/ship', 200, { name: 'Nomad' }),
  request('GET', '/api/player/ship', 200),
  request('GET', '/api/news', 200),
  request('POST', '/api/player/ship/move', 200, { sectorId: 3 }),
];

describe('the state a recording depended on', () => {
  it('where it is missing: the refusal the recording also saw, and the successes refused after it, are no drift', () => {
    const state = new RecordedState(SESSION);
    expect(state.explain(0, 403)).toBeUndefined();
    expect(state.explain(1, 403)).toMatch(/^request 2: answered 403 where the recording had 200; the recording saw 403, 200 for this same request/);
    expect(state.explain(2, 404)).toBe('request 3: answered 404 where the recording had 200, after request 2, whose answer depended on state');
    // Another status of the same class, or a server error, is drift whatever came before.
    expect(state.explain(3, 201)).toBeUndefined();
    expect(state.explain(4, 500)).toBeUndefined();
  });

  it('where it was set up before the session: only the same request sent again follows from it', () => {
    const state = new RecordedState(SESSION);
    expect(state.explain(0, 200)).toMatch(/^request 1: answered 200 where the recording had 403/);
    expect(state.explain(1, 400)).toBe('request 2: answered 400 where the recording had 200, after request 1, whose answer depended on state');
    expect(state.explain(2, 404)).toBeUndefined();
    expect(state.sameRequests(1)).toEqual([0, 1]);
  });

  it('is no excuse where the recording never saw the request answered two ways', () => {
    const state = new RecordedState(SESSION);
    expect(state.explain(2, 404)).toBeUndefined();
    expect(state.explain(3, 200)).toBeUndefined();
  });
});
