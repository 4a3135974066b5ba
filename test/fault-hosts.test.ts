import { request as httpRequest } from 'node:http';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultRuleFromText } from '../src/core/fault-rules.js';
import { createService } from '../src/core/service.js';
import { createFetchHandler } from '../src/hosts/fetch.js';
import { createMswMock } from '../src/hosts/msw.js';
import { startTestServer, type TestServer } from './support/server.js';

const RULES = ['GET /health reset', 'GET /api/player truncate'];

interface RawAnswer {
  status: number;
  declaredLength: number;
  received: number;
  /** How the body ended: `end`, or the error the client saw. */
  ending: string;
}

/** A GET with node:http, read to its end or its error, to see what a client of the socket sees. */
function rawGet(url: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { agent: false }, (response) => {
      let received = 0;
      const answer = (ending: string) =>
        resolve({ status: response.statusCode ?? 0, declaredLength: Number(response.headers['content-length']), received, ending });
      response.on('data', (chunk: Buffer) => (received += chunk.byteLength));
      response.on('end', () => answer('end'));
      response.on('error', (error: NodeJS.ErrnoException) => answer(error.code ?? error.message));
    });
    request.on('error', reject).end();
  });
}

describe('faults on the node:http host', () => {
  let mock: TestServer;
  beforeAll(async () => {
    mock = await startTestServer();
    for (const text of RULES) mock.service.faults.add(faultRuleFromText(text));
  });
  afterAll(() => mock.close());

  it('reset: the client sees the connection reset, not an answer', async () => {
    await expect(rawGet(`${mock.url}/health`)).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('truncate: the headers announce the whole body, fewer bytes arrive, and the connection ends in an error', async () => {
    const answer = await rawGet(`${mock.url}/api/player`);
    expect(answer.status).toBe(401);
    expect(answer.received).toBeGreaterThan(0);
    expect(answer.received).toBeLessThan(answer.declaredLength);
    expect(answer.ending).toBe('ECONNRESET');
  });

  it('other requests are answered in full on the same server', async () => {
    expect(await rawGet(`${mock.url}/api/auth/register`)).toMatchObject({ status: 405, ending: 'end' });
  });
});

describe('faults on the msw host', () => {
  const msw = createMswMock({ baseUrl: 'https://faults.game.test', faults: RULES, faultSeed: 1 });
  const server = setupServer(...msw.handlers);
  beforeAll(() => server.listen());
  afterAll(() => server.close());

  it('reset: fetch rejects with a network error', async () => {
    await expect(fetch('https://faults.game.test/health')).rejects.toThrow(TypeError);
    expect(await msw.control.count({ fault: 'reset' })).toBe(1);
  });

  it('truncate: the answer arrives, and reading its body fails midway', async () => {
    const response = await fetch('https://faults.game.test/api/player');
    expect(response.status).toBe(401);
    await expect(response.text()).rejects.toThrow();
  });
});

describe('faults on the fetch host', () => {
  const handle = createFetchHandler(createService({ version: '1', faults: RULES, faultSeed: 1 }));

  it('reset answers the Fetch network error; truncate a body stream that errors after part of the body', async () => {
    expect((await handle(new Request('http://mock.test/health'))).type).toBe('error');
    const truncated = await handle(new Request('http://mock.test/api/player'));
    const reader = truncated.body!.getReader();
    const first = await reader.read();
    expect(first.value!.byteLength).toBeLessThan(Number(truncated.headers.get('content-length')));
    await expect(reader.read()).rejects.toThrow(/truncate fault/);
  });
});
