import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../src/hosts/node-http.js';
import { parseRawResponse } from '../support/http.js';
import { useResources } from '../support/resources.js';

const resources = useResources();
const TOLERANCE_MS = 1_000;

/**
 * Sends `head` and then one more byte of `trickle` every second, as a slow client does: resolves with
 * what the server answered and how long after the first byte it closed the connection.
 */
function slowClient(port: number, head: string, trickle: string): Promise<{ elapsedMs: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let started = 0;
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]!);
    }, 1_000);
    socket.once('connect', () => {
      started = performance.now();
      socket.write(head);
    });
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ elapsedMs: performance.now() - started, answer: Buffer.concat(received).toString('utf8') });
    });
  });
}

describe('reliability: timeouts for slow clients, as the README states them', () => {
  it(`cuts headers at ${SERVER_LIMITS.headersTimeoutMs / 1000} s and a slow body at ${SERVER_LIMITS.requestTimeoutMs / 1000} s, each within a second, with a 408 envelope`, async () => {
    const { port } = await resources.server();
    const [headers, body] = await Promise.all([
      slowClient(port, 'GET /health HTTP/1.1\r\nhost: localhost\r\nx-slow: ', 'a'.repeat(60)),
      slowClient(port, 'POST /api/auth/register HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{', ' '.repeat(99)),
    ]);
    expect(headers.elapsedMs).toBeGreaterThanOrEqual(SERVER_LIMITS.headersTimeoutMs - 50);
    expect(headers.elapsedMs).toBeLessThan(SERVER_LIMITS.headersTimeoutMs + TOLERANCE_MS);
    expect(body.elapsedMs).toBeGreaterThanOrEqual(SERVER_LIMITS.requestTimeoutMs - 50);
    expect(body.elapsedMs).toBeLessThan(SERVER_LIMITS.requestTimeoutMs + TOLERANCE_MS);
    for (const { answer } of [headers, body]) {
      const raw = parseRawResponse(answer);
      expect(raw.statusLine).toBe('HTTP/1.1 408 Request Timeout');
      expect(JSON.parse(raw.body)).toEqual({ error: 'Request timed out' });
    }
  }, SERVER_LIMITS.requestTimeoutMs + 10_000);
});
