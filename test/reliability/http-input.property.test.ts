import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/http.js';
import { propertyParameters } from '../support/property.js';
import { rawRequest, type RawRequest } from '../support/raw-requests.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Requests per property run, sent at once on their own connections. */
const BATCH = 25;
/** Inputs in all: a seeded sample here; `npm run fuzz:http` sends 100,000 (HTTP_FUZZ_INPUTS). */
const INPUTS = Number(process.env['HTTP_FUZZ_INPUTS'] ?? 2_000);
/** A request whose connection the server has neither answered and closed by then counts as a hang. */
const HANG_MS = 3_000;

interface Exchange {
  request: RawRequest;
  answer: string;
}

/** Sends one request on its own connection and resolves with all the server sent once it closes the connection. */
function exchange(port: number, request: RawRequest): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no close within ${HANG_MS} ms to ${JSON.stringify(request.bytes.toString('latin1').slice(0, 500))}`));
    }, HANG_MS);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    // A reset by the server (a request it refuses outright) is an answer too: the connection ended.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ request, answer: Buffer.concat(received).toString('latin1') });
    });
    socket.write(request.bytes);
    if (!request.complete) socket.end();
  });
}

describe('reliability: any bytes over HTTP', () => {
  let mock: TestServer;
  beforeAll(async () => {
    mock = await startTestServer({ trustProxy: true, gameOrigins: ['http://game.test'] });
  });
  afterAll(() => mock.close());

  it(
    `answers ${INPUTS} generated requests without a 500 or a hang, and /health still answers`,
    async () => {
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(rawRequest, { minLength: BATCH, maxLength: BATCH }), async (requests) => {
          const exchanges = await Promise.all(requests.map((request) => exchange(mock.port, request)));
          sent += exchanges.length;
          for (const { request, answer } of exchanges) {
            expect(answer, request.bytes.toString('latin1').slice(0, 500)).not.toMatch(/^HTTP\/1\.[01] 5\d\d /m);
          }
        }),
        propertyParameters('any bytes over HTTP', Math.ceil(INPUTS / BATCH)),
      );
      expect(sent).toBeGreaterThanOrEqual(INPUTS);
      const health = await call(`${mock.url}/health`, { headers: { 'x-forwarded-for': '192.0.2.200' } });
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: 'ok' });
    },
    60_000 + INPUTS * 20,
  );
});
