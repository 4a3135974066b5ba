import { describe, expect, it } from 'vitest';
import { call, header } from '../support/http.js';
import { useResources } from '../support/resources.js';

const resources = useResources();

describe('reliability: X-Forwarded-For under --trust-proxy', () => {
  it('counts a request whose first hop is not an address (a 14 KB value) against the socket peer', async () => {
    const { url, service } = await resources.server({ trustProxy: true });
    const agent = resources.agent();
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const response = await call(`${url}/health`, { headers: { 'x-forwarded-for': `${String(i).repeat(14_000)}, 10.0.0.1` }, dispatcher: agent });
      expect(response.status).toBe(200);
      remaining.push(header(response, 'x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['59', '58', '57']);
    expect(service.journal.latest().map((entry) => entry.ip)).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
  });

  it('gives one address one bucket, however it is spelled', async () => {
    const { url } = await resources.server({ trustProxy: true });
    const agent = resources.agent();
    const remaining = [];
    for (const spelling of ['2001:db8::1', '2001:DB8:0:0:0:0:0:1', '2001:db8:0::1']) {
      remaining.push(header(await call(`${url}/health`, { headers: { 'x-forwarded-for': spelling }, dispatcher: agent }), 'x-ratelimit-remaining'));
    }
    for (const spelling of ['203.0.113.7', '::ffff:203.0.113.7', '::ffff:cb00:7107']) {
      remaining.push(header(await call(`${url}/health`, { headers: { 'x-forwarded-for': spelling }, dispatcher: agent }), 'x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['59', '58', '57', '59', '58', '57']);
  });
});
