import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Exchange, parsedJson } from '../exchange.js';
import { LiveJudge, type LiveRequest } from '../live/live-judge.js';
import type { LiveFinding } from '../live/live-finding.js';
import { exchangeChars, FindingsLog } from './findings-log.js';
import { createForwarder, flatHeaders, KeptBody, type Passed } from './forward.js';
import { LatestItems } from './latest-items.js';
import { PROXY_PREFIX, servePage } from './findings-page.js';

export interface ProxyOptions {
  target: URL;
  port: number;
  host: string;
  gameOrigins: readonly string[];
  /** Read the client's address from this header (its first hop) instead of the socket. */
  clientIpHeader?: string | undefined;
  onFinding?: (finding: LiveFinding) => void;
  /** Keep the API's exchanges (the latest, up to RECORDED_EXCHANGES and RECORDED_CHARS of bodies) for `--record`. */
  keepApiExchanges?: boolean;
}

/** How many of the API's exchanges a proxy keeps for `--record`: the latest, so memory stays bounded. */
export const RECORDED_EXCHANGES = 50_000;
/** And at most this many characters of their bodies. */
const RECORDED_CHARS = 128 * 1024 * 1024;

export interface RunningProxy {
  url: string;
  log: FindingsLog;
  /** The API's exchanges when kept (`keepApiExchanges`), oldest first; `droppedApiExchanges` counts the oldest let go. */
  apiExchanges: Exchange[];
  droppedApiExchanges: number;
  close(): Promise<void>;
}

const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/;

function clientIp(incoming: IncomingMessage, header: string | undefined): string {
  const socketIp = (incoming.socket.remoteAddress ?? 'unknown').replace(IPV4_MAPPED, '$1');
  if (header === undefined) return socketIp;
  const raw = incoming.headers[header.toLowerCase()];
  const first = (Array.isArray(raw) ? raw[0] : raw)?.split(',')[0]?.trim();
  if (first === undefined || first === '') return socketIp;
  // RFC 7239: `for=198.51.100.1` or `for="[2001:db8::1]"`.
  const forwarded = /^for="?\[?([^\]";]+)/i.exec(first);
  return forwarded?.[1] ?? first;
}

function exchangeOf(incoming: IncomingMessage, target: URL, request: LiveRequest, passed: Passed): Exchange {
  const text = passed.streamed ? '' : passed.responseBody.text();
  const requestBody = passed.requestBody.size === 0 ? undefined : passed.requestBody.text();
  return {
    method: request.method,
    url: new URL(`${target.pathname.replace(/\/$/, '')}${incoming.url ?? '/'}`, target).toString(),
    requestHeaders: request.headers,
    requestBody,
    status: passed.status,
    headers: passed.responseHeaders,
    text,
    body: passed.responseBody.truncated ? undefined : parsedJson(text),
    sentAt: request.receivedAt,
    receivedAt: Date.now(),
  };
}

function refuseUnreachable(outgoing: ServerResponse, target: URL, error: Error): void {
  if (outgoing.headersSent) {
    outgoing.destroy();
    return;
  }
  const body = JSON.stringify({
    error: `game-service proxy: the target ${target.origin} did not answer (${(error as NodeJS.ErrnoException).code ?? error.message})`,
  });
  outgoing.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

/**
 * Forwards every request to the target unchanged (Host aside) and judges each exchange as its answer ends; the
 * findings page and its data are served under /__proxy, never forwarded.
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { target } = options;
  const judge = new LiveJudge(options.gameOrigins);
  const forwarder = createForwarder(target);
  const log = new FindingsLog();
  const apiExchanges = new LatestItems<Exchange>(RECORDED_EXCHANGES, RECORDED_CHARS);

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const url = incoming.url ?? '/';
    const path = url.split('?')[0]!;
    if (path === PROXY_PREFIX || path.startsWith(`${PROXY_PREFIX}/`)) {
      servePage(incoming, outgoing, path, log);
      return;
    }
    const request: LiveRequest = {
      method: incoming.method ?? 'GET',
      path,
      headers: flatHeaders(incoming.headers),
      clientIp: clientIp(incoming, options.clientIpHeader),
      receivedAt: Date.now(),
    };
    const pending = judge.begin(request);
    let passed: Passed;
    try {
      passed = await forwarder.forward(incoming, outgoing, new KeptBody());
    } catch (error) {
      judge.abandon(pending);
      refuseUnreachable(outgoing, target, error as Error);
      return;
    }
    const exchange = exchangeOf(incoming, target, request, passed);
    const judgeable = !passed.streamed && !passed.requestBody.truncated && !passed.responseBody.truncated;
    log.addExchange(exchange, judgeable);
    if (options.keepApiExchanges === true && (path === '/health' || path.startsWith('/api/'))) {
      apiExchanges.add(exchange, exchangeChars(exchange));
    }
    if (!judgeable) {
      judge.abandon(pending);
      return;
    }
    for (const finding of judge.end(pending, exchange)) {
      log.addFinding(finding);
      options.onFinding?.(finding);
    }
  }

  const server: Server = createServer({ keepAliveTimeout: 10_000 }, (incoming, outgoing) => {
    void handle(incoming, outgoing);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    log,
    get apiExchanges() {
      return apiExchanges.toArray();
    },
    get droppedApiExchanges() {
      return apiExchanges.dropped;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        forwarder.close();
      }),
  };
}
