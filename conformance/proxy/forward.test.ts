import { once } from 'node:events';
import { createHash } from 'node:crypto';
import { createServer, get, type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { flatHeaders, KEPT_BODY_BYTES, KeptBody } from './forward.js';
import { startProxy } from './proxy-server.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A target whose event stream never ends; `closed` settles once the answer it was writing is closed under it. */
async function endlessStream() {
  let closed!: () => void;
  const answerClosed = new Promise<void>((resolve) => (closed = resolve));
  const server = createServer((_request: IncomingMessage, answer: ServerResponse) => {
    answer.writeHead(200, { 'content-type': 'text/event-stream' });
    answer.write('data: first\n\n');
    answer.on('close', closed);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), answerClosed };
}

/** A target that answers each request with a body of `size` bytes, after reading the request's whole: it tells the request body's digest. */
async function largeAnswers(size: number) {
  const body = Buffer.alloc(size, 'x');
  const server = createServer(async (request: IncomingMessage, answer: ServerResponse) => {
    const digest = createHash('sha256');
    for await (const chunk of request) digest.update(chunk as Buffer);
    answer.writeHead(200, { 'content-type': 'application/json', 'x-request-digest': digest.digest('hex') }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), body };
}

describe('forwarding', () => {
  it('passes bodies past what it keeps whole both ways, to a client that reads slowly, and leaves that exchange unjudged', async () => {
    const target = await largeAnswers(4 * KEPT_BODY_BYTES);
    const proxy = await startProxy({ target: target.url, port: 0, host: '127.0.0.1', gameOrigins: [] });
    closers.unshift(() => proxy.close());
    const sent = Buffer.alloc(2 * KEPT_BODY_BYTES, 'y');
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = request(`${proxy.url}/api/upload`, { method: 'POST', headers: { 'content-type': 'application/json' } }, resolve);
      outgoing.on('error', reject).end(sent);
    });
    // Not read at first: the proxy must wait for the client (its writes refused) and still pass every byte.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    expect(answer.headers['x-request-digest']).toBe(createHash('sha256').update(sent).digest('hex'));
    expect(Buffer.concat(chunks).equals(target.body)).toBe(true);
    expect(proxy.log.exchangeCount).toBe(1);
    expect(proxy.log.unjudged()).toEqual([{ reason: 'past the size the proxy keeps', count: 1 }]);
  });

  it("cancels the target's answer when the client goes away before it ends", async () => {
    const target = await endlessStream();
    const proxy = await startProxy({ target: target.url, port: 0, host: '127.0.0.1', gameOrigins: [] });
    closers.unshift(() => proxy.close());
    const answer = await new Promise<IncomingMessage>((resolve, reject) => get(`${proxy.url}/events`, resolve).on('error', reject));
    const [first] = (await once(answer, 'data')) as [Buffer];
    expect(first.toString()).toContain('data: first');
    answer.destroy();
    const cancelled = await Promise.race([target.answerClosed.then(() => true), new Promise((resolve) => setTimeout(resolve, 5_000, false))]);
    expect(cancelled).toBe(true);
  });

  it('flattens repeated headers as HTTP joins them, Set-Cookie one per line, and leaves the others as they are', () => {
    // As undici parses an answer's headers: any repeated one as a list.
    const repeated: IncomingHttpHeaders = { 'set-cookie': ['a=1', 'b=2'], vary: ['Origin', 'Accept'] as unknown as string, host: 'target' };
    expect(flatHeaders(repeated)).toEqual({
      'set-cookie': 'a=1\nb=2',
      vary: 'Origin, Accept',
      host: 'target',
    });
    expect(flatHeaders({ host: 'target', origin: 'http://game.invalid' })).toEqual({ host: 'target', origin: 'http://game.invalid' });
  });

  it('keeps a body of one chunk as it passed, and of several as their bytes in order', () => {
    const one = new KeptBody();
    one.add(Buffer.from('whole'));
    expect(one.text()).toBe('whole');
    const several = new KeptBody();
    for (const part of ['a', 'b', 'c']) several.add(Buffer.from(part));
    expect(several.bytes().toString()).toBe('abc');
    expect(several.size).toBe(3);
  });
});
