import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../src/hosts/node-http.js';
import { parseRawResponse } from '../support/http.js';
import { useResources } from '../support/resources.js';

const resources = useResources();
const TOLERANCE_MS = 1_000;

/** Bytes a second once answered: a client that keeps sending learns quickly whether the server closed. */
const AFTER_ANSWER_EVERY_MS = 50;

/**
 * Sends `head` and then one more byte of `trickle` every `everyMs`, as a slow client does, and goes on sending
 * after the answer, faster (it keeps its side open, as a hostile client would): resolves with what the server
 * answered, when the answer ended (the server's FIN) and when the connection was closed, from the first byte.
 */
function slowClient(port: number, head: string, trickle: string, everyMs = 1_000): Promise<{ answeredMs: number; closedMs: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    let started = 0;
    let answeredMs = Number.NaN;
    let sent = 0;
    const send = () => {
      if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]!);
    };
    let timer = setInterval(send, everyMs);
    socket.once('connect', () => {
      started = performance.now();
      socket.write(head);
    });
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.once('end', () => {
      answeredMs = performance.now() - started;
      clearInterval(timer);
      timer = setInterval(send, AFTER_ANSWER_EVERY_MS);
    });
    // A write after the server closed fails with EPIPE or ECONNRESET: the close that follows tells when.
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answeredMs, closedMs: performance.now() - started, answer: Buffer.concat(received).toString('utf8') });
    });
  });
}

describe('reliability: timeouts for slow clients, as the README states them', () => {
  it(
    `cuts headers at ${SERVER_LIMITS.headersTimeoutMs / 1000} s and a slow body at ${SERVER_LIMITS.requestTimeoutMs / 1000} s, each within a second, with a 408 envelope, and closes the connection though the client keeps sending`,
    async () => {
      const { port } = await resources.server();
      const [headers, body] = await Promise.all([
        slowClient(port, 'GET /health HTTP/1.1\r\nhost: localhost\r\nx-slow: ', 'a'.repeat(60)),
        slowClient(
          port,
          'POST /api/auth/register HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{',
          ' '.repeat(99),
        ),
      ]);
      expect(headers.answeredMs).toBeGreaterThanOrEqual(SERVER_LIMITS.headersTimeoutMs - 50);
      expect(headers.answeredMs).toBeLessThan(SERVER_LIMITS.headersTimeoutMs + TOLERANCE_MS);
      expect(body.answeredMs).toBeGreaterThanOrEqual(SERVER_LIMITS.requestTimeoutMs - 50);
      expect(body.answeredMs).toBeLessThan(SERVER_LIMITS.requestTimeoutMs + TOLERANCE_MS);
      for (const { answer, answeredMs, closedMs } of [headers, body]) {
        expect(closedMs - answeredMs, 'closed after the answer, though the client keeps sending').toBeLessThan(TOLERANCE_MS);
        const raw = parseRawResponse(answer);
        expect(raw.statusLine).toBe('HTTP/1.1 408 Request Timeout');
        expect(JSON.parse(raw.body)).toEqual({ error: 'Request timed out' });
      }
    },
    SERVER_LIMITS.requestTimeoutMs + 10_000,
  );

  it('closes the connection of a client answered 400 for malformed HTTP, though it keeps sending', async () => {
    const { port } = await resources.server();
    const malformed = await slowClient(port, 'NOT HTTP AT ALL\r\n\r\n', 'x'.repeat(100), 50);
    expect(parseRawResponse(malformed.answer).statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(malformed.closedMs).toBeLessThan(TOLERANCE_MS);
  });
});
