import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startMock, useCli } from '../support/cli.js';
import { parseRawResponse } from '../support/http.js';

const cli = useCli();
const GRACE_MS = 5_000;

describe('reliability: SIGTERM', () => {
  it('answers the request in flight with Connection: close, closes idle connections at once, and exits within the grace period', async () => {
    const { process, port } = await startMock(cli, ['--port', '0']);
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const body = '{"email":"alice@example.com"}';
    socket.write(
      `POST /api/auth/register HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 4)}`,
    );
    const idle = connect(port, '127.0.0.1');
    const idleClosed = new Promise<void>((resolve) => idle.on('close', () => resolve()));
    idle.write('GET /health HTTP/1.1\r\nhost: localhost\r\n\r\n');
    await new Promise((resolve) => idle.once('data', resolve));

    const signalledAt = Date.now();
    process.signal('SIGTERM');
    await process.waitForOutput(/SIGTERM received/);
    await idleClosed;
    // At once, not at the end of the grace period: the request in flight, not yet whole, still holds its connection.
    expect(socket.closed, 'the connection of the request in flight').toBe(false);
    socket.write(body.slice(4));
    await closed;
    const exit = await process.waitForExit(GRACE_MS);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(GRACE_MS);

    const answer = parseRawResponse(Buffer.concat(received).toString('utf8'));
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
    expect(answer.headers['connection']).toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ success: true });
  });
});
