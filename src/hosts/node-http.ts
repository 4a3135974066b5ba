import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorAnswer } from '../core/answer.js';
import { headerValue, JSON_CONTENT_TYPE, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { Service } from '../core/service.js';
import { forwardedClientIp } from '../core/client-ip.js';
import { withoutIpv4Mapping } from '../spec/client-address.js';
import { CappedBody, declaredOverLimit, overLimitStandIn } from './capped-body.js';
import { sendContent, type OpenStreams } from './node-content.js';

export interface NodeHostOptions {
  /** Take the client IP from the first X-Forwarded-For hop instead of the TCP peer. */
  trustProxy?: boolean;
}

/** Timeouts and a connection cap, so that slow or hostile clients cannot hold the server. */
export const SERVER_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 10_000,
  /**
   * Node checks the two timeouts above on this interval (30 s by default): they hold to within it, and a busy
   * machine's late timer on top (bench/slow-clients.js: 500 ms ended a cut 0.50 s late with the cores all busy).
   */
  timeoutCheckIntervalMs: 200,
} as const;

/** Servers being shut down: their responses close the connection instead of keeping it alive. */
const closing = new WeakSet<Server>();
/** Each server's open streams (the journal's events), ended when it shuts down. */
const openStreams = new WeakMap<Server, OpenStreams>();

interface ReadBody {
  bytes: Uint8Array | undefined;
  /** Part of the body was left unread, so the connection cannot be reused. */
  truncated: boolean;
}

function clientIp(service: Service, request: IncomingMessage, peer: string, trustProxy: boolean): string {
  if (!trustProxy) return peer;
  return forwardedClientIp((name) => headerValue(request, name), service.variants.current) ?? peer;
}

/** The service's plain request: its path and query split off the target (a URL parsed only for an absolute-form one), headers, body, addresses. */
function serviceRequest(request: IncomingMessage, body: Uint8Array | undefined, ip: string, peer: string): ServiceRequest {
  const url = request.url ?? '/';
  const queryStart = url.indexOf('?');
  const target = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? undefined : url.slice(queryStart + 1);
  // Absolute-form targets (`GET http://host/path`) as sent through forward proxies.
  const path = target.startsWith('/') || !URL.canParse(target) ? target : new URL(target).pathname;
  return { method: request.method ?? 'GET', path, query, headers: request.headers, body, ip, peer };
}

function peerAddress(request: IncomingMessage): string {
  return withoutIpv4Mapping(request.socket.remoteAddress ?? 'unknown');
}

const NO_BODY: ReadBody = { bytes: undefined, truncated: false };

/** Reads at most one byte past the body limit: enough for the service to answer 413. */
function readBody(request: IncomingMessage): ReadBody | Promise<ReadBody> {
  const declared = request.headers['content-length'];
  if (declared === undefined && request.headers['transfer-encoding'] === undefined) return NO_BODY;
  if (declaredOverLimit(declared)) return { bytes: overLimitStandIn(), truncated: true };
  return new Promise((resolve, reject) => {
    const body = new CappedBody();
    const onData = (chunk: Buffer) => {
      body.add(chunk);
      if (!body.overLimit) return;
      request.off('data', onData).off('end', onEnd);
      resolve({ bytes: body.bytes(), truncated: true });
    };
    const onEnd = () => resolve({ bytes: body.bytes(), truncated: false });
    request.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

/** An injected truncate fault: the full Content-Length, half the bytes, then the connection cut. */
function sendTruncated(response: ServerResponse, status: number, headers: (string | number)[], json: string | undefined): void {
  const bytes = Buffer.from(json ?? '');
  response.writeHead(status, headers).write(bytes.subarray(0, bytes.byteLength >> 1), () => response.socket?.destroy());
}

/**
 * The service's headers with what the wire needs besides, as the flat name/value list node:http takes without
 * copying: the service's answer stays as it gave it.
 */
function wireHeaders(headers: Readonly<Record<string, string>>, json: string | undefined, closeConnection: boolean): (string | number)[] {
  const wire: (string | number)[] = [];
  for (const name in headers) wire.push(name, headers[name]!);
  if (closeConnection) wire.push('connection', 'close');
  if (json !== undefined) wire.push('content-type', JSON_CONTENT_TYPE, 'content-length', Buffer.byteLength(json));
  return wire;
}

function send(response: ServerResponse, answer: ServiceResponse, closeConnection: boolean, streams?: OpenStreams): void {
  // An injected reset: a TCP RST instead of an answer.
  if (answer.cut === 'reset') {
    response.socket?.resetAndDestroy();
    return;
  }
  if (answer.content !== undefined) {
    sendContent(response, answer, closeConnection, streams ?? new Set());
    return;
  }
  const json = answer.body === undefined ? undefined : JSON.stringify(answer.body);
  const headers = wireHeaders(answer.headers, json, closeConnection);
  if (answer.cut === 'truncate') sendTruncated(response, answer.status, headers, json);
  else response.writeHead(answer.status, headers).end(json);
}

function rawEnvelope(status: number, message: string): string {
  const json = JSON.stringify({ error: message });
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: ${JSON_CONTENT_TYPE}\r\n` +
    `content-length: ${Buffer.byteLength(json)}\r\nconnection: close\r\n\r\n${json}`
  );
}

const CLIENT_ERROR_ANSWERS: Readonly<Record<string, [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'Request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timed out'],
};

/** How long an answered bad client's connection may take to drain the answer before it is cut. */
const CLOSE_AFTER_ANSWER_MS = 1_000;

/**
 * Answers malformed or timed-out HTTP with an error envelope too, instead of Node's bare text, then closes the
 * connection both ways: a half-close would let a client that keeps sending hold it open.
 */
function onClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, message] = CLIENT_ERROR_ANSWERS[error.code ?? ''] ?? [400, 'Malformed HTTP request'];
  const cut = setTimeout(() => socket.destroy(), CLOSE_AFTER_ANSWER_MS).unref();
  socket.end(rawEnvelope(status, message), () => {
    clearTimeout(cut);
    socket.destroy();
  });
}

/** RFC 9112: an HTTP/1.1 request without Host is answered 400 (Node's own answer has no body). */
function lacksHost(request: IncomingMessage): boolean {
  return request.httpVersion === '1.1' && request.headers.host === undefined;
}

/** The one 500 envelope for a host bug: the service answers its own errors. */
function answerHostBug(response: ServerResponse, error: unknown): void {
  const failed = errorAnswer(error, (bug) => console.error('Unexpected error in the HTTP host:', bug));
  if (!response.headersSent) send(response, { status: failed.status, headers: {}, body: failed.body }, true);
}

/** Reads the body, then answers; in the same turn when the service answers at once (most requests). */
function serve(service: Service, trustProxy: boolean, server: Server, request: IncomingMessage, response: ServerResponse): void {
  if (lacksHost(request)) {
    send(response, { status: 400, headers: {}, body: { error: 'An HTTP/1.1 request must carry a Host header' } }, true);
    return;
  }
  const read = readBody(request);
  if (!(read instanceof Promise)) {
    answer(service, trustProxy, server, request, response, read);
    return;
  }
  read.then(
    (body) => answer(service, trustProxy, server, request, response, body),
    // The client went away while sending its body: nobody is left to answer.
    () => request.destroy(),
  );
}

/** Hands the request to the service and writes its answer: at once when it answers at once, else when it has. */
function answer(service: Service, trustProxy: boolean, server: Server, request: IncomingMessage, response: ServerResponse, body: ReadBody): void {
  // Whether to close is read when the answer is written: a shutdown may have begun meanwhile.
  const finish = (answered: ServiceResponse) => send(response, answered, body.truncated || closing.has(server), openStreams.get(server));
  try {
    const peer = peerAddress(request);
    const answered = service.handleNow(serviceRequest(request, body.bytes, clientIp(service, request, peer, trustProxy), peer));
    if (answered instanceof Promise) answered.then(finish).catch((error: unknown) => answerHostBug(response, error));
    else finish(answered);
  } catch (error) {
    answerHostBug(response, error);
  }
}

/** A node:http server over `service.handle`, with plain request/response records and no Fetch objects. */
export function createNodeServer(service: Service, options: NodeHostOptions = {}): Server {
  const trustProxy = options.trustProxy ?? false;
  const server: Server = createServer(
    {
      headersTimeout: SERVER_LIMITS.headersTimeoutMs,
      requestTimeout: SERVER_LIMITS.requestTimeoutMs,
      keepAliveTimeout: SERVER_LIMITS.keepAliveTimeoutMs,
      connectionsCheckingInterval: SERVER_LIMITS.timeoutCheckIntervalMs,
      requireHostHeader: false,
    },
    (request, response) => serve(service, trustProxy, server, request, response),
  );
  openStreams.set(server, new Set());
  server.maxConnections = SERVER_LIMITS.maxConnections;
  server.on('clientError', onClientError);
  return server;
}

/**
 * Stops accepting connections, closes idle keep-alive ones at once, ends open event streams, and answers
 * the requests in flight with `Connection: close`; connections still open after `graceMs` are cut. Resolves once all are closed.
 */
export function shutDownNodeServer(server: Server, graceMs: number): Promise<void> {
  closing.add(server);
  for (const end of openStreams.get(server) ?? []) end();
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs).unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
