import { setupServer } from 'msw/node';
import { describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../src/core/clock.js';
import { createService } from '../src/core/service.js';
import { createFetchHandler } from '../src/hosts/fetch.js';
import { createMswMock } from '../src/hosts/msw.js';
import { shutDownNodeServer } from '../src/hosts/node-http.js';
import { header } from './support/http.js';
import { json, useControlServers, type ControlServer } from './support/control-server.js';

const startServer = useControlServers();
/** How long a condition may take to come about: its wait ends as soon as it does, however loaded the machine (vi.waitFor's own 1 s is not). */
const CONDITION = { timeout: 15_000, interval: 20 };

/** Reads a stream of server-sent events until `count` events have come, then cancels it; their data parsed. */
async function readEvents(body: ReadableStream<Uint8Array>, count: number): Promise<Record<string, unknown>[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const found: Record<string, unknown>[] = [];
  let text = '';
  while (found.length < count) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended after ${found.length} events`);
    text += decoder.decode(value, { stream: true });
    for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n')) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      if (block.startsWith('data: ')) found.push(JSON.parse(block.slice(6)) as Record<string, unknown>);
    }
  }
  await reader.cancel();
  return found;
}

const openStream = (mock: ControlServer, query = '') => fetch(`${mock.url}/__mock/journal/stream${query}`);

/** A file of the dashboard: its status, headers and text. */
async function file(mock: ControlServer, path: string) {
  const response = await fetch(`${mock.url}${path}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('the dashboard at /__mock/ui', () => {
  it('serves the page, its script and its style, with a policy that allows no remote source', async () => {
    const mock = await startServer();
    const page = await file(mock, '/__mock/ui');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).toContain('<script type="module" src="/__mock/ui/dashboard.js"></script>');

    for (const [name, type] of [
      ['dashboard.js', 'text/javascript; charset=utf-8'],
      ['dashboard.css', 'text/css; charset=utf-8'],
    ]) {
      const asset = await file(mock, `/__mock/ui/${name}`);
      expect({ name, status: asset.status, type: asset.headers.get('content-type'), nosniff: asset.headers.get('x-content-type-options') }).toEqual({
        name,
        status: 200,
        type,
        nosniff: 'nosniff',
      });
      expect(asset.text).not.toMatch(/https?:\/\//);
    }
    expect((await file(mock, '/__mock/ui/')).text).toBe(page.text);
    const head = await mock.request('HEAD', '/__mock/ui');
    expect({ status: head.status, text: head.text, length: header(head, 'content-length') }).toEqual({
      status: 200,
      text: '',
      length: String(Buffer.byteLength(page.text)),
    });
  });

  it('answers an unknown file 404, and other methods 405, as every control route does', async () => {
    const mock = await startServer();
    expect(json(await mock.get('/__mock/ui/constructor'))).toEqual({ error: 'No dashboard file constructor; the page is at /__mock/ui' });
    const post = await mock.post('/__mock/ui', {});
    expect({ status: post.status, allow: header(post, 'allow') }).toEqual({ status: 405, allow: 'GET, HEAD' });
  });

  it('is under the control API guard: a foreign Host or Origin is refused, and --no-control removes it', async () => {
    const mock = await startServer();
    for (const path of ['/__mock/ui', '/__mock/ui/dashboard.js', '/__mock/journal/stream']) {
      expect((await mock.get(path, { host: 'mock.attacker.test' })).status).toBe(403);
      expect((await mock.get(path, { origin: 'http://attacker.test' })).status).toBe(403);
    }
    const off = await startServer({ service: { control: { enabled: false } } });
    const page = await off.get('/__mock/ui');
    expect({ status: page.status, body: page.body }).toEqual({ status: 404, body: { error: 'No route for /__mock/ui' } });
    expect((await off.get('/__mock/journal/stream')).status).toBe(404);
  });

  it('and from a peer that is not on loopback, unless the control API is public', async () => {
    const options = { version: '0.1.0', clock: new VirtualClock({ frozen: true }), onOtp: () => {} };
    const request = { method: 'GET', path: '/__mock/ui', headers: {}, ip: '203.0.113.9', peer: '203.0.113.9' };
    expect((await createService(options).handle(request)).status).toBe(403);
    expect((await createService({ ...options, control: { public: true } }).handle(request)).status).toBe(200);
  });
});

describe('GET /__mock/journal/stream', () => {
  it('sends each request the API answers as an event, as GET /__mock/journal lists it, with its filters', async () => {
    const mock = await startServer();
    await mock.get('/health');
    const response = await openStream(mock, '?path=/api/*&limit=5');
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await mock.post('/api/auth/register', { email: 'alice@example.com' });
    await mock.get('/health');
    await mock.get('/api/player');

    const events = await readEvents(response.body!, 2);
    const { entries } = json<{ entries: unknown[] }>(await mock.get('/__mock/journal?path=/api/*'));
    expect(events).toEqual(entries.toReversed());
    expect(events.map((event) => `${event['method']} ${event['path']} ${event['status']}`)).toEqual(['POST /api/auth/register 200', 'GET /api/player 401']);
  });

  it('replays the newest `limit` entries first, oldest of them first, and refuses a filter it does not know', async () => {
    const mock = await startServer();
    for (const path of ['/health', '/api/a', '/api/b', '/api/c']) await mock.get(path);
    const response = await openStream(mock, '?limit=2');
    expect((await readEvents(response.body!, 2)).map((event) => event['path'])).toEqual(['/api/b', '/api/c']);

    const refused = await mock.get('/__mock/journal/stream?stauts=500');
    expect({ status: refused.status, type: header(refused, 'content-type') }).toEqual({ status: 400, type: 'application/json; charset=utf-8' });
  });

  it('lets go of the journal when the client disconnects', async () => {
    const mock = await startServer();
    const streams = await Promise.all([openStream(mock), openStream(mock)]);
    await vi.waitFor(() => expect(mock.service.journal.subscribers).toBe(2), CONDITION);
    await Promise.all(streams.map((response) => response.body!.cancel()));
    await vi.waitFor(() => expect(mock.service.journal.subscribers).toBe(0), CONDITION);
  });

  it('does not hold a shutdown: open streams end at once and the server closes', async () => {
    const mock = await startServer();
    const response = await openStream(mock);
    await vi.waitFor(() => expect(mock.service.journal.subscribers).toBe(1), CONDITION);
    // A grace far longer than any load can stretch the shutdown: it ends well before, or the stream held it.
    const started = Date.now();
    await shutDownNodeServer(mock.server, 120_000);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(await response.text()).toBe('retry: 1000\n\n');
    expect(mock.service.journal.subscribers).toBe(0);
  });

  it('streams through the fetch host too, and stops when the caller cancels the body', async () => {
    const service = createService({ version: '0.1.0', clock: new VirtualClock({ frozen: true }), onOtp: () => {} });
    const handle = createFetchHandler(service);
    const response = await handle(new Request('http://mock.test/__mock/journal/stream'));
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await handle(new Request('http://mock.test/health'));
    expect((await readEvents(response.body!, 1))[0]).toMatchObject({ method: 'GET', path: '/health', status: 200 });
    expect(service.journal.subscribers).toBe(0);
  });

  it("streams through the msw handlers too, as a page's EventSource reads it, and stops when the reader cancels", async () => {
    const mock = createMswMock({ baseUrl: 'https://api.stream.test', clock: new VirtualClock({ frozen: true }), onOtp: () => {} });
    const msw = setupServer(...mock.handlers);
    msw.listen({ onUnhandledFrame: 'error' });
    try {
      const response = await fetch('https://api.stream.test/__mock/journal/stream');
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      await fetch('https://api.stream.test/health');
      expect((await readEvents(response.body!, 1))[0]).toMatchObject({ method: 'GET', path: '/health', status: 200 });
      await vi.waitFor(() => expect(mock.service.journal.subscribers).toBe(0), CONDITION);
    } finally {
      msw.close();
    }
  });
});
