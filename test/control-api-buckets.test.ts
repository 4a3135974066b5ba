import { describe, expect, it } from 'vitest';
import { header } from './support/http.js';
import { json, useControlServers } from './support/control-server.js';

/** PUT /__mock/buckets: a bucket set as it was, which is how check and fuzz put back the buckets they found. */

const startServer = useControlServers();
const START_MS = Date.UTC(2030, 0, 1, 9);
const at = (ms: number) => new Date(START_MS + ms).toISOString();

describe('control API over HTTP: PUT /__mock/buckets', () => {
  it('sets a bucket to a count in a window ending when asked, which the API then counts on from', async () => {
    const mock = await startServer({ startMs: START_MS });
    await mock.post('/api/auth/register', { email: 'a@example.com' });
    const set = await mock.request('PUT', '/__mock/buckets', { category: 'auth', key: '127.0.0.1', count: 3, resetAt: at(30_000) });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      success: true,
      bucket: { category: 'auth', key: '127.0.0.1', count: 3, limit: 5, remaining: 2, resetAt: at(30_000) },
    });
    const next = await mock.post('/api/auth/register', { email: 'b@example.com' });
    expect(header(next, 'x-ratelimit-remaining')).toBe('1');
    expect(json<{ buckets: unknown[] }>(await mock.get('/__mock/buckets?category=auth&key=127.0.0.1')).buckets).toEqual([
      { category: 'auth', key: '127.0.0.1', count: 4, limit: 5, remaining: 1, resetAt: at(30_000) },
    ]);
  });

  it.each([
    [
      'a count above the limit',
      { category: 'auth', key: '127.0.0.1', count: 6, resetAt: at(30_000) },
      'body /count must be at most 5, the size of the auth bucket',
    ],
    [
      'a window that has ended',
      { category: 'auth', key: '127.0.0.1', count: 1, resetAt: at(0) },
      "body /resetAt must be an ISO 8601 date-time after the clock's now",
    ],
    ['an unknown category', { category: 'players', key: 'x', count: 1, resetAt: at(30_000) }, 'body'],
    ['a missing key', { category: 'auth', count: 1, resetAt: at(30_000) }, 'body'],
  ])('refuses %s with 400', async (_name, body, message) => {
    const mock = await startServer({ startMs: START_MS });
    const refused = await mock.request('PUT', '/__mock/buckets', body);
    expect(refused.status).toBe(400);
    expect(json<{ error: string }>(refused).error).toContain(message);
    expect(json<{ buckets: unknown[] }>(await mock.get('/__mock/buckets')).buckets).toEqual([]);
  });
});
