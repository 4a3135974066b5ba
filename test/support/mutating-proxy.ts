import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RuleId } from '../../conformance/rules/index.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { OtpDelivery, ServiceOptions } from '../../src/core/options.js';
import { createService, type Service } from '../../src/core/service.js';
import { createNodeServer } from '../../src/hosts/node-http.js';
import { forwardedClientIp } from '../../src/core/client-ip.js';
import type { RateLimitCategory } from '../../src/spec/limits.js';
import { ROUTES, type RouteAuth } from '../../src/spec/routes.js';

/** The upstream mock's game origin, as `game-service check` uses for its embedded mock. */
export const GAME_ORIGIN = 'http://conformance.game.test';
const CONTROL_PREFIX = '/__mock';
/** The proxy reaches its upstream on loopback: the control API serves it. */
const LOOPBACK = '127.0.0.1';

/** One request as the proxy received it; `headers` and `body` are what the upstream will get, and may be rewritten. */
export interface ProxiedRequest {
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  /** The query with its `?`, or ''. */
  readonly search: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string | undefined;
  /** The body as the client sent it, parsed as JSON (undefined when it is not JSON). */
  readonly json: unknown;
  /** The spec route's rate-limit category; unknown paths count as public reads, control paths have none. */
  readonly category: RateLimitCategory | undefined;
  readonly auth: RouteAuth | undefined;
  readonly isControl: boolean;
  readonly origin: string | undefined;
  readonly isGameOrigin: boolean;
  /** The client as the upstream tells clients apart: the first X-Forwarded-For hop, else the TCP peer. */
  readonly clientIp: string;
  /** The bearer token sent, if any. */
  readonly token: string | undefined;
}

/** The upstream's answer (or a mutation's); rewrite it in place. */
export interface ProxiedResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The JSON body; sent unless `text` is set. Undefined: no body (or one that was not JSON, kept in `text`). */
  body: unknown;
  /** A raw body sent as is, instead of `body` (set its content-type header too). */
  text?: string;
  /** Raw bytes sent as they are (a compressed body), instead of `text` or `body`. */
  bytes?: Uint8Array;
}

/** What the proxy has seen pass, so that mutations can tell a stale code or token from a fresh one. */
export interface Ledger {
  /** Every code the upstream delivered, oldest first (its stand-in for email). */
  readonly otps: readonly OtpDelivery[];
  /** Tokens seen in any response body (verify-email, control API), with the moment they stop being valid. */
  readonly tokens: ReadonlyMap<string, { expiresAtMs: number }>;
  /** Codes and tokens a control scenario expired. */
  readonly expiredCodes: ReadonlySet<OtpDelivery>;
  readonly expiredTokens: ReadonlySet<string>;
  latestOtp(email: string): OtpDelivery | undefined;
  /** The address a token was issued to (by a verification, or the control API's player creation), as the server keys it. */
  playerOf(token: string): string | undefined;
  /** The code is past its lifetime, by the upstream clock or a control scenario. */
  codeExpired(delivery: OtpDelivery): boolean;
  tokenExpired(token: string): boolean;
}

export interface MutationContext {
  readonly request: ProxiedRequest;
  /** The upstream's clock (ms), which the suite moves through the control API. */
  now(): number;
  readonly ledger: Ledger;
  /** A value kept for the life of this proxy, created by `init` on first use. */
  memo<T>(key: string, init: () => T): T;
}

export interface ResponseContext extends MutationContext {
  readonly response: ProxiedResponse;
}

/** One named way in which the proxy alters the upstream's behaviour. */
export interface ProxyBehaviour {
  name: string;
  /** What it changes, in a sentence. */
  does: string;
  /** Options of the upstream mock, for variations that are configuration rather than rewriting. */
  upstream?: Partial<Omit<ServiceOptions, 'clock' | 'onOtp' | 'version'>>;
  /** Control requests (/__mock/*) pass untouched unless this is set (e.g. to translate rewritten tokens back). */
  seesControl?: boolean;
  /** How the suite and the fuzzer must address this server, where it differs from the default (X-Forwarded-For, the mock's ship payload). */
  target?: { clientIpHeader?: string; shipPayload?: string };
  /** Before forwarding: rewrite `ctx.request`, or answer in place of the upstream by returning a response. */
  before?(ctx: MutationContext): ProxiedResponse | undefined | Promise<ProxiedResponse | undefined>;
  /** After: rewrite `ctx.response` in place. */
  apply?(ctx: ResponseContext): void;
}

/** A behaviour that breaks one spec rule: the suite must fail, with a check of that rule among the failures. */
export interface Mutation extends ProxyBehaviour {
  breaks: RuleId;
}

export interface MutatingProxy {
  /** The proxy's base URL: what the suite checks. */
  url: string;
  upstreamUrl: string;
  service: Service;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade', 'te', 'trailer', 'proxy-connection']);
const ROUTE_BY_KEY = new Map<string, (typeof ROUTES)[number]>(ROUTES.map((route) => [`${route.method} ${route.path}`, route]));

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function peerAddress(message: IncomingMessage): string {
  const peer = message.socket.remoteAddress ?? 'unknown';
  return peer.startsWith('::ffff:') ? peer.slice(7) : peer;
}

async function readBody(message: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : Buffer.concat(chunks).toString('utf8');
}

function toProxiedRequest(message: IncomingMessage, body: string | undefined, gameOrigins: ReadonlySet<string>): ProxiedRequest {
  const url = message.url ?? '/';
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const method = message.method ?? 'GET';
  const incoming = flatHeaders(message.headers);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
  // Forward the client's identity, so that per-IP buckets of the upstream (which trusts the proxy) still work.
  const peer = peerAddress(message);
  const forwardedFor = incoming['x-forwarded-for'] === undefined ? peer : `${incoming['x-forwarded-for']}, ${peer}`;
  headers['x-forwarded-for'] = forwardedFor;
  const isControl = path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
  const route = ROUTE_BY_KEY.get(`${method} ${path}`);
  const origin = incoming['origin'];
  const bearer = /^Bearer\s+(\S+)$/i.exec(incoming['authorization'] ?? '');
  return {
    method,
    path,
    search: queryAt === -1 ? '' : url.slice(queryAt),
    headers,
    body,
    json: parseJson(body),
    category: isControl ? undefined : (route?.category ?? 'public'),
    auth: route?.auth,
    isControl,
    origin,
    isGameOrigin: origin !== undefined && gameOrigins.has(origin),
    clientIp: forwardedFor.split(',')[0]!.trim(),
    token: bearer?.[1],
  };
}

function createLedger(now: () => number) {
  const otps: OtpDelivery[] = [];
  const tokens = new Map<string, { expiresAtMs: number }>();
  const expiredCodes = new Set<OtpDelivery>();
  const expiredTokens = new Set<string>();
  const players = new Map<string, string>();
  const ledger: Ledger = {
    otps,
    tokens,
    expiredCodes,
    expiredTokens,
    latestOtp: (email) => otps.findLast((delivery) => delivery.email === email.trim().toLowerCase()),
    codeExpired: (delivery) => now() >= delivery.expiresAt || expiredCodes.has(delivery),
    playerOf: (token) => players.get(token),
    tokenExpired: (token) => expiredTokens.has(token) || now() >= (tokens.get(token)?.expiresAtMs ?? Number.POSITIVE_INFINITY),
  };
  /** Learns tokens from any body, and the expiries the suite causes through control scenarios. */
  function record(request: ProxiedRequest, response: ProxiedResponse): void {
    const body = response.body as { authToken?: unknown; expiresAt?: unknown } | undefined;
    if (typeof body?.authToken === 'string' && typeof body.expiresAt === 'string') {
      tokens.set(body.authToken, { expiresAtMs: Date.parse(body.expiresAt) });
    }
    const issuedTo = (request.json as { email?: unknown } | undefined)?.email;
    if (typeof body?.authToken === 'string' && typeof issuedTo === 'string') players.set(body.authToken, issuedTo.trim().toLowerCase());
    if (request.isControl && request.method === 'POST' && response.status === 200) {
      const params = request.json as { email?: unknown; token?: unknown } | undefined;
      const pending = typeof params?.email === 'string' ? ledger.latestOtp(params.email) : undefined;
      if (request.path === `${CONTROL_PREFIX}/scenarios/code-expired` && pending !== undefined) expiredCodes.add(pending);
      if (request.path === `${CONTROL_PREFIX}/scenarios/token-expired` && typeof params?.token === 'string') expiredTokens.add(params.token);
    }
  }
  return { ledger, otps, record };
}

/** A streamed answer (the journal's events) read whole: no check of the suite keeps one open. */
async function streamText(stream: ReadableStream<string>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function send(out: ServerResponse, response: ProxiedResponse): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
  let payload: string | Uint8Array | undefined = response.bytes ?? response.text;
  if (payload === undefined && response.body !== undefined) {
    payload = JSON.stringify(response.body);
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  if (payload === undefined) delete headers['content-type'];
  headers['content-length'] = String(typeof payload === 'string' || payload === undefined ? Buffer.byteLength(payload ?? '') : payload.byteLength);
  out.writeHead(response.status, headers).end(payload);
}

/**
 * A mock upstream (in process, clock controllable, trusting the proxy's X-Forwarded-For) behind a proxy on
 * 127.0.0.1:0 that forwards every request and lets `behaviour` alter requests and responses in one named way.
 * The proxy asks the upstream's service in process; the upstream also listens (`upstreamUrl`), for a test that
 * wants to reach it past the proxy.
 */
export async function startMutatingProxy(behaviour?: ProxyBehaviour): Promise<MutatingProxy> {
  const clock = new VirtualClock();
  const { ledger, otps, record } = createLedger(() => clock.now());
  const service = createService({
    ...behaviour?.upstream,
    version: '0.1.0',
    clock,
    gameOrigins: behaviour?.upstream?.gameOrigins ?? [GAME_ORIGIN],
    onOtp: (delivery) => otps.push(delivery),
    onError: (error) => console.error('upstream mock:', error),
  });
  const upstream = createNodeServer(service, { trustProxy: true });
  const upstreamUrl = await listen(upstream);
  const gameOrigins = new Set(behaviour?.upstream?.gameOrigins ?? [GAME_ORIGIN]);
  const memos = new Map<string, unknown>();
  const memo = <T>(key: string, init: () => T): T => {
    if (!memos.has(key)) memos.set(key, init());
    return memos.get(key) as T;
  };

  /** The upstream's answer, asked in process: the same service the upstream server serves, without a second HTTP hop. */
  async function forward(proxied: ProxiedRequest): Promise<ProxiedResponse> {
    const header = (name: string) => proxied.headers[name];
    const answer = await service.handle({
      method: proxied.method,
      path: proxied.path,
      query: proxied.search === '' ? undefined : proxied.search.slice(1),
      headers: proxied.headers,
      body: proxied.body === undefined ? undefined : Buffer.from(proxied.body),
      ip: forwardedClientIp(header, service.variants.current) ?? LOOPBACK,
      peer: LOOPBACK,
    });
    const headers = { ...answer.headers };
    // A HEAD is answered as a GET without its body, as the node:http host does.
    if (proxied.method === 'HEAD') return { status: answer.status, headers, body: undefined };
    if (typeof answer.content === 'string') return { status: answer.status, headers, body: undefined, text: answer.content };
    if (answer.content !== undefined) return { status: answer.status, headers, body: undefined, text: await streamText(answer.content) };
    return { status: answer.status, headers, body: answer.body };
  }

  async function handle(message: IncomingMessage, out: ServerResponse): Promise<void> {
    const proxied = toProxiedRequest(message, await readBody(message), gameOrigins);
    const mutates = behaviour !== undefined && (!proxied.isControl || behaviour.seesControl === true);
    const context: MutationContext = { request: proxied, now: () => clock.now(), ledger, memo };
    const early = mutates ? await behaviour.before?.(context) : undefined;
    const response = early ?? (await forward(proxied));
    record(proxied, response);
    if (mutates && early === undefined) behaviour.apply?.({ ...context, response });
    send(out, response);
  }

  const proxy = createServer((message, out) => {
    handle(message, out).catch((error: unknown) => {
      console.error('mutating proxy:', error);
      if (!out.headersSent) send(out, { status: 502, headers: {}, body: { error: `proxy: ${String(error)}` } });
    });
  });
  const url = await listen(proxy);
  return {
    url,
    upstreamUrl,
    service,
    async close() {
      await closeServer(proxy);
      await closeServer(upstream);
    },
  };
}
