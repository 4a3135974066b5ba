import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../src/standalone/mock.js';
import { shutDownNodeServer } from '../../src/hosts/node-http.js';
import { call, header, parseRawResponse, sendRaw } from '../support/http.js';
import { useResources } from '../support/resources.js';

const resources = useResources();
const quiet = { listening() {}, otp() {}, request() {}, error() {}, store() {}, stopping() {} };

/** A socket to the port, with everything it receives so far, and a promise of its close. */
function openSocket(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, connected, closed, text: () => Buffer.concat(received).toString('utf8') };
}

describe('reliability: the node:http host', () => {
  it('answers HEAD wherever GET is served, as GET without the body', async () => {
    const { url, port } = await resources.server();
    const agent = resources.agent();
    const get = await call(`${url}/health`, { dispatcher: agent });
    const head = await call(`${url}/health`, { method: 'HEAD', dispatcher: agent });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(header(head, 'content-type')).toBe('application/json; charset=utf-8');
    expect(header(head, 'content-length')).toBe(header(get, 'content-length'));
    expect(header(head, 'x-ratelimit-remaining')).toBe('58');
    expect((await call(`${url}/__mock/clock`, { method: 'HEAD', dispatcher: agent })).status).toBe(200);
    expect((await call(`${url}/api/player`, { method: 'HEAD', dispatcher: agent })).status).toBe(401);
    const raw = await sendRaw(port, 'HEAD /health HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n');
    expect(raw.endsWith('\r\n\r\n')).toBe(true);
  });

  it('answers an HTTP/1.1 request without Host with a 400 envelope', async () => {
    const { port } = await resources.server();
    const raw = parseRawResponse(await sendRaw(port, 'GET /health HTTP/1.1\r\n\r\n'));
    expect(raw.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(raw.headers['connection']).toBe('close');
    expect(JSON.parse(raw.body)).toEqual({ error: 'An HTTP/1.1 request must carry a Host header' });
    expect(parseRawResponse(await sendRaw(port, 'GET /health HTTP/1.0\r\n\r\n')).statusLine).toBe('HTTP/1.1 200 OK');
  });

  it('names the status in the status line of a 431 answer', async () => {
    const { port } = await resources.server();
    const tooLarge = parseRawResponse(await sendRaw(port, `GET /health HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(tooLarge.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
  });

  it('on shutdown, answers the request in flight with Connection: close and closes idle keep-alive connections at once', async () => {
    const { server, port } = await resources.server();
    const idle = openSocket(port);
    idle.socket.write('GET /health HTTP/1.1\r\nhost: localhost\r\n\r\n');
    const inFlight = openSocket(port);
    const body = '{"email":"alice@example.com"}';
    inFlight.socket.write(
      `POST /api/auth/register HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await Promise.all([idle.connected, inFlight.connected]);
    await expect.poll(() => idle.text()).toContain('"status":"ok"');
    expect(idle.text()).toMatch(/connection: keep-alive/i);

    const stopped = shutDownNodeServer(server, 5_000);
    await idle.closed;
    expect(inFlight.socket.destroyed).toBe(false);
    inFlight.socket.write(body.slice(5));
    await inFlight.closed;
    await stopped;
    const answer = parseRawResponse(inFlight.text());
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
    expect(answer.headers['connection']).toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ success: true });
  });

  it('prints a reachable URL and the bound address when bound to every interface', async () => {
    const mock = await startMock({ port: 0, host: '0.0.0.0', gameOrigins: [], trustProxy: false, logger: quiet });
    try {
      expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(mock.address).toBe(`0.0.0.0:${new URL(mock.url).port}`);
      expect((await call(`${mock.url}/health`, { dispatcher: resources.agent() })).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
