import { describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../src/hosts/node-http.js';
import { parseRawResponse } from '../support/http.js';
import { useResources } from '../support/resources.js';
import { slowClient } from './slow-client.js';

const resources = useResources();
const TOLERANCE_MS = 1_000;

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
