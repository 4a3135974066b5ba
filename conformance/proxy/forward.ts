import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { type Dispatcher, errors, Pool } from 'undici';

/** Headers of one hop (RFC 9110 §7.6.1): a proxy answers them itself and never passes them on. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** How much of each body the proxy keeps to judge; the rest is passed on all the same. */
export const KEPT_BODY_BYTES = 1024 * 1024;

const EMPTY = Buffer.alloc(0);

/** The bytes of a body as they pass, the first KEPT_BODY_BYTES of them kept. */
export class KeptBody {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  truncated = false;

  add(chunk: Buffer): void {
    if (this.#kept >= KEPT_BODY_BYTES) {
      this.truncated = true;
      return;
    }
    const room = KEPT_BODY_BYTES - this.#kept;
    if (chunk.length > room) this.truncated = true;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#chunks.push(part);
    this.#kept += part.length;
  }

  get size(): number {
    return this.#kept;
  }

  bytes(): Buffer {
    if (this.#chunks.length === 0) return EMPTY;
    return this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
  }

  text(): string {
    return this.bytes().toString('utf8');
  }
}

/** One exchange as it passed: the request as forwarded and the answer as returned, with their bodies as far as kept. */
export interface Passed {
  status: number;
  /** Lower-case names; repeated headers joined as HTTP joins them. */
  responseHeaders: Readonly<Record<string, string>>;
  requestBody: KeptBody;
  responseBody: KeptBody;
  /** The answer streams (Server-Sent Events): passed on, not kept. */
  streamed: boolean;
}

/** How a passage ended: the exchange as it passed, or why the target's answer did not come (or not whole). */
export type PassageEnd = (outcome: Passed | Error) => void;

export interface Forwarder {
  /** Passes a request on and its answer back, and then tells `ended` (a callback, not a promise: the proxy calls this on every request). */
  forward(incoming: IncomingMessage, outgoing: ServerResponse, requestBody: KeptBody, ended: PassageEnd): void;
  close(): void;
}

/**
 * Headers as one string each, lower-case names; repeated ones joined as HTTP joins them (Set-Cookie one per line).
 * Headers that are so already (most requests' and answers') are given back as they are: a copy of each cost the
 * proxy an object and a loop per exchange.
 */
export function flatHeaders(headers: IncomingHttpHeaders): Readonly<Record<string, string>> {
  for (const name in headers) if (typeof headers[name] !== 'string') return flatCopy(headers);
  return headers as Record<string, string>;
}

function flatCopy(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
  }
  return flat;
}

/** The request's headers for the target: its own, without those of this hop, and Host naming the target. */
function forwardedHeaders(incoming: IncomingMessage, target: URL): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  // for…in, not Object.entries: the proxy copies headers on every request, and the entries' arrays cost it more than the copy.
  for (const name in incoming.headers) {
    const value = incoming.headers[name];
    if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
  }
  headers['host'] = target.host;
  return headers;
}

/** The request's body as it arrives, each chunk kept as it passes on to the target. */
async function* keptWhilePassing(incoming: IncomingMessage, kept: KeptBody): AsyncGenerator<Buffer> {
  for await (const chunk of incoming) {
    kept.add(chunk as Buffer);
    yield chunk as Buffer;
  }
}

/** A request that carries a body, by HTTP/1.1's framing: a length above zero, or chunks. */
const hasBody = (incoming: IncomingMessage) =>
  incoming.headers['transfer-encoding'] !== undefined || (incoming.headers['content-length'] !== undefined && incoming.headers['content-length'] !== '0');

/** The answer's headers for the client: without those of the hop; repeated ones (Set-Cookie) kept apart. */
function answerHeaderList(headers: Record<string, string | string[] | undefined>): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  }
  return kept;
}

/**
 * One request's passage through the pool, as undici's dispatch handler: the answer is written to the client as its
 * parts arrive, and kept as it passes. Lower than `pool.request`, which per request adds a stream, its async
 * iterator and an async-hooks resource, none of which the proxy needs.
 */
class Passage implements Dispatcher.DispatchHandler {
  readonly #outgoing: ServerResponse;
  readonly #requestBody: KeptBody;
  readonly #ended: PassageEnd;
  #controller: Dispatcher.DispatchController | undefined;
  #clientGone = false;
  #status = 0;
  #responseHeaders: Readonly<Record<string, string>> = {};
  #streamed = false;
  readonly #responseBody = new KeptBody();

  constructor(outgoing: ServerResponse, requestBody: KeptBody, ended: PassageEnd) {
    this.#outgoing = outgoing;
    this.#requestBody = requestBody;
    this.#ended = ended;
    outgoing.on('close', this.#clientClosed);
  }

  /** The client went away before its answer ended: the target's answer is cancelled (an endless event stream too). */
  readonly #clientClosed = () => {
    if (this.#outgoing.writableFinished) return;
    this.#clientGone = true;
    this.#controller?.abort(new errors.RequestAbortedError());
  };

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#clientGone) controller.abort(new errors.RequestAbortedError());
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // An interim answer (1xx) is not passed on: the final one follows.
    if (statusCode < 200) return;
    this.#status = statusCode;
    this.#responseHeaders = flatHeaders(headers);
    this.#streamed = /^text\/event-stream/i.test(this.#responseHeaders['content-type'] ?? '');
    this.#outgoing.writeHead(statusCode, answerHeaderList(headers));
    if (this.#streamed) this.#outgoing.flushHeaders();
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.#streamed) this.#responseBody.add(chunk);
    if (this.#outgoing.write(chunk)) return;
    controller.pause();
    this.#outgoing.once('drain', () => controller.resume());
  }

  onResponseEnd(): void {
    this.#outgoing.off('close', this.#clientClosed);
    this.#outgoing.end();
    this.#ended({
      status: this.#status,
      responseHeaders: this.#responseHeaders,
      requestBody: this.#requestBody,
      responseBody: this.#responseBody,
      streamed: this.#streamed,
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    this.#outgoing.off('close', this.#clientClosed);
    this.#ended(error);
  }
}

/**
 * Passes requests to one target over a pool of kept-alive connections (undici, whose client costs the proxy
 * much less than node:http's), bodies streamed both ways as they come (an event stream flows through), keeping
 * what it passes to be judged.
 */
export function createForwarder(target: URL): Forwarder {
  const pool = new Pool(target.origin, { connections: 128, pipelining: 1 });
  const prefix = target.pathname.replace(/\/$/, '');
  return {
    forward(incoming, outgoing, requestBody, ended) {
      pool.dispatch(
        {
          method: (incoming.method ?? 'GET') as Dispatcher.HttpMethod,
          path: `${prefix}${incoming.url ?? '/'}`,
          headers: forwardedHeaders(incoming, target) as Record<string, string | string[]>,
          body: hasBody(incoming) ? Readable.from(keptWhilePassing(incoming, requestBody)) : null,
        },
        new Passage(outgoing, requestBody, ended),
      );
    },
    close() {
      void pool.destroy();
    },
  };
}
