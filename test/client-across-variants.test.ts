import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMswMock, type MswMock } from '../src/hosts/msw.js';

/**
 * The README's client-developer example, run: a client written for the spec alone must work against every
 * legal server, so its test runs across random variant draws (and the public deployment's choices).
 */

const API = 'https://api.variants.test';

/** A client as the spec allows it to be written: it reads only what the spec shows, and tolerates the rest. */
const client = {
  async post(path: string, body: unknown, token?: string) {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) };
    return fetch(`${API}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  },
  async signIn(email: string, readCode: () => Promise<string>): Promise<string> {
    const registered = await this.post('/api/auth/register', { email });
    if (!registered.ok) throw new Error(`register: ${registered.status}`);
    const verified = await this.post('/api/auth/verify-email', { email, otp: await readCode() });
    if (!verified.ok) throw new Error(`verify: ${verified.status}`);
    return ((await verified.json()) as { authToken: string }).authToken;
  },
  /** The player's fields are not shown by the spec: nested under `player` or beside `success`. */
  async profile(token: string): Promise<{ email: string }> {
    const response = await fetch(`${API}/api/player`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`player: ${response.status}`);
    const body = (await response.json()) as { player?: { email: string }; email?: string };
    return body.player ?? (body as { email: string });
  },
};

let mock: MswMock;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

describe.each(['random:1', 'random:2', 'random:3', 'random:4', 'public-deployment'])('against a legal server drawn with --variant %s', (variant) => {
  it('signs in, and a wrong code is refused with a 4xx whatever its status', async () => {
    mock = createMswMock({ baseUrl: API, variants: [variant], onOtp: () => {} });
    server.resetHandlers(...mock.handlers);
    const email = 'pilot@example.com';
    const token = await client.signIn(email, () => mock.control.latestOtp(email));
    expect((await client.profile(token)).email).toBe(email);

    await client.post('/api/auth/register', { email: 'other@example.com' });
    const wrong = await client.post('/api/auth/verify-email', { email: 'other@example.com', otp: '000000' });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBeLessThan(500);
    expect(((await wrong.json()) as { error: unknown }).error).toEqual(expect.any(String));
  });
});
