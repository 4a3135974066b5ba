import {
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
  Agent as HttpAgent,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';

/** Headers of one hop (RFC 9110 §7.6.1): a proxy answers them itself and never passes them on. */
const HOP_BY_HOP = new Set([
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

  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}

/** One exchange as it passed: the request as forwarded and the answer as returned, with their bodies as far as kept. */
export interface Passed {
  status: number;
  /** Lower-case names; repeated headers joined as HTTP joins them. */
  responseHeaders: Record<string, string>;
  requestBody: KeptBody;
  responseBody: KeptBody;
  /** The answer streams (Server-Sent Events): passed on, not kept. */
  streamed: boolean;
}

export interface Forwarder {
  forward(incoming: IncomingMessage, outgoing: ServerResponse, requestBody: KeptBody): Promise<Passed>;
  close(): void;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
  }
  return flat;
}

/** The request's headers for the target: its own, without those of this hop, and Host naming the target. */
function forwardedHeaders(incoming: IncomingMessage, target: URL): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
  }
  headers['host'] = target.host;
  return headers;
}

/** The answer's raw headers without those of the hop, in their order and spelling. */
function answerHeaders(raw: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < raw.length; index += 2) {
    if (!HOP_BY_HOP.has(raw[index]!.toLowerCase())) kept.push(raw[index]!, raw[index + 1]!);
  }
  return kept;
}

/**
 * Passes requests to one target over kept-alive connections, bodies streamed both ways as they come (an event
 * stream flows through), keeping what it passes to be judged.
 */
export function createForwarder(target: URL): Forwarder {
  const secure = target.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const prefix = target.pathname.replace(/\/$/, '');
  return {
    forward(incoming, outgoing, requestBody) {
      return new Promise<Passed>((resolve, reject) => {
        const upstream = send({
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          method: incoming.method,
          path: `${prefix}${incoming.url ?? '/'}`,
          headers: forwardedHeaders(incoming, target),
          agent,
        });
        upstream.on('error', reject);
        upstream.on('response', (answer) => {
          const status = answer.statusCode ?? 502;
          const responseHeaders = flatHeaders(answer.headers);
          const streamed = /^text\/event-stream/i.test(responseHeaders['content-type'] ?? '');
          const responseBody = new KeptBody();
          outgoing.writeHead(status, answer.statusMessage, answerHeaders(answer.rawHeaders));
          if (streamed) outgoing.flushHeaders();
          answer.on('data', (chunk: Buffer) => {
            if (!streamed) responseBody.add(chunk);
            outgoing.write(chunk);
          });
          answer.on('end', () => {
            outgoing.end();
            resolve({ status, responseHeaders, requestBody, responseBody, streamed });
          });
          answer.on('error', reject);
          outgoing.on('close', () => answer.destroy());
        });
        incoming.on('data', (chunk: Buffer) => {
          requestBody.add(chunk);
          upstream.write(chunk);
        });
        incoming.on('end', () => upstream.end());
        incoming.on('error', (error) => upstream.destroy(error));
        outgoing.on('close', () => {
          if (!outgoing.writableFinished) upstream.destroy();
        });
      });
    },
    close() {
      agent.destroy();
    },
  };
}
