import { describe, expect, it, vi } from 'vitest';
import type { Exchange } from '../common/exchange.js';
import type { Identity } from './identities.js';
import { Pacer } from './pacing.js';

const client = (label: string) => ({ label }) as Identity;

function refused(): Exchange {
  return {
    method: 'POST',
    url: 'http://target.test/api/auth/register',
    requestHeaders: {},
    requestBody: '{"email":"a@example.com"}',
    status: 429,
    headers: { 'retry-after': '60' },
    text: '{"error":"x"}',
    body: { error: 'x' },
    sentAt: 0,
    receivedAt: 0,
  };
}

describe('Pacer, in real time', () => {
  it('waits out an auth 429 of a client that had spent its own budget', async () => {
    vi.useFakeTimers();
    try {
      const pacer = new Pacer(undefined, 120);
      const spent = client('198.18.0.1');
      for (let sent = 0; sent < 6; sent++) pacer.recordAuth(spent);
      pacer.noteRefusedWithRoom(spent, refused());
      expect(pacer.sharedAuthBucket).toBeUndefined();
      const retry = pacer.after429(refused(), 0, true);
      await vi.advanceTimersByTimeAsync(61_000);
      expect(await retry).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("concludes nothing in the run's first minute, when a window an earlier run left open may refuse a client with room", async () => {
    const pacer = new Pacer(undefined, 120);
    const neighbour = client('198.18.0.2');
    await pacer.beforeAuth(neighbour);
    pacer.noteRefusedWithRoom(neighbour, refused());
    expect(pacer.sharedAuthBucket).toBeUndefined();
  });

  it('past the first minute, once a client with room in its own budget is refused, hands auth 429s back at once instead of waiting for windows that may never come', async () => {
    vi.useFakeTimers();
    try {
      const pacer = new Pacer(undefined, 120);
      await vi.advanceTimersByTimeAsync(62_000);
      const neighbour = client('198.18.0.2');
      await pacer.beforeAuth(neighbour);
      const exchange = refused();
      pacer.noteRefusedWithRoom(neighbour, exchange);
      expect(pacer.sharedAuthBucket).toEqual({ client: '198.18.0.2', sent: 1, exchange });
      expect(await pacer.after429(refused(), 0, true)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
