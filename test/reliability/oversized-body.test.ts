import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/core/body.js';
import { parseRawResponse } from '../support/http.js';
import { useResources } from '../support/resources.js';
import { slowClient } from './slow-client.js';

const resources = useResources();
const TOLERANCE_MS = 1_000;
const TRICKLE_EVERY_MS = 50;
const REGISTER = 'POST /api/auth/register HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n';

describe('reliability: a body over the limit', () => {
  it('is answered 413, and the connection closed both ways though the client keeps sending, whether its length was declared or chunked', async () => {
    const { port } = await resources.server();
    const overLimit = MAX_BODY_BYTES + 1_000;
    const [declared, chunked] = await Promise.all([
      slowClient(port, `${REGISTER}content-length: ${overLimit}\r\n\r\n{`, ' '.repeat(200), TRICKLE_EVERY_MS),
      slowClient(
        port,
        `${REGISTER}transfer-encoding: chunked\r\n\r\n${overLimit.toString(16)}\r\n{${' '.repeat(MAX_BODY_BYTES)}`,
        ' '.repeat(200),
        TRICKLE_EVERY_MS,
      ),
    ]);
    for (const { answer, answeredMs, closedMs } of [declared, chunked]) {
      const raw = parseRawResponse(answer);
      expect(raw.statusLine, answer).toBe('HTTP/1.1 413 Payload Too Large');
      expect(raw.headers['connection']).toBe('close');
      expect(answeredMs, 'answered at once').toBeLessThan(TOLERANCE_MS);
      expect(closedMs - answeredMs, 'closed after the answer, though the client keeps sending').toBeLessThan(TOLERANCE_MS);
    }
  });
});
