import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalIp, firstHop, LONGEST_ADDRESS, withoutIpv4Mapping } from '../../src/spec/client-address.js';
import { type Exchange, parsedJson } from '../target/exchange.js';
import { LiveJudge, type LiveRequest } from '../live/live-judge.js';
import type { LiveFinding } from '../live/live-finding.js';
import { exchangeChars, FindingsLog } from './findings-log.js';
import { DECODED_BODY_CAP, decodedBody, type UndecodedReason } from './decoded-body.js';
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
  /** Decode a compressed body up to this many bytes (DECODED_BODY_CAP); past it the exchange is left unjudged. */
  decodedBodyCap?: number;
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

/**
 * The client's address as the mock's hosts read it (src/spec/client-address.ts): the socket's, or the first hop of
 * the header it was told to read, in its canonical spelling. A hop that is no address (an RFC 7239 obfuscated
 * identifier) is kept as written: the server may count by it all the same.
 */
function clientIp(incoming: IncomingMessage, header: string | undefined): string {
  const socketIp = withoutIpv4Mapping(incoming.socket.remoteAddress ?? 'unknown');
  if (header === undefined) return socketIp;
  const raw = incoming.headers[header.toLowerCase()];
  const value = Array.isArray(raw) ? raw[0] : raw;
  const first = value === undefined ? '' : firstHop(value);
  if (first === '') return socketIp;
  // RFC 7239: `for=198.51.100.1` or `for="[2001:db8::1]"`.
  const hop = /^for="?\[?([^\]";]+)/i.exec(first)?.[1] ?? first;
  return (hop.length > LONGEST_ADDRESS ? undefined : canonicalIp(hop)) ?? hop;
}

/** Why an exchange the proxy passed is not judged: a body it does not hold whole, or cannot read. */
export type UnjudgedReason = UndecodedReason | 'past the size the proxy keeps';

/** A body as judged: its text as the sender meant it (decoded), or why it cannot be judged (then its text is what is known of it). */
interface ReadBody {
  text: string;
  unjudged?: UnjudgedReason;
}

function readBody(kept: KeptBody, contentEncoding: string | undefined, cap: number): ReadBody {
  if (kept.truncated) return { text: contentEncoding === undefined ? kept.text() : '', unjudged: 'past the size the proxy keeps' };
  const decoded = decodedBody(kept.bytes(), contentEncoding, cap);
  return 'unjudged' in decoded ? { text: '', unjudged: decoded.unjudged } : { text: decoded.bytes.toString('utf8') };
}

function exchangeOf(incoming: IncomingMessage, target: URL, request: LiveRequest, passed: Passed, cap: number) {
  const answer: ReadBody = passed.streamed ? { text: '' } : readBody(passed.responseBody, passed.responseHeaders['content-encoding'], cap);
  const sent = readBody(passed.requestBody, request.headers['content-encoding'], cap);
  const exchange: Exchange = {
    method: request.method,
    url: new URL(`${target.pathname.replace(/\/$/, '')}${incoming.url ?? '/'}`, target).toString(),
    requestHeaders: request.headers,
    requestBody: passed.requestBody.size === 0 ? undefined : sent.text,
    status: passed.status,
    headers: passed.responseHeaders,
    text: answer.text,
    body: answer.unjudged === undefined ? parsedJson(answer.text) : undefined,
    sentAt: request.receivedAt,
    receivedAt: Date.now(),
  };
  return { exchange, unjudged: answer.unjudged ?? sent.unjudged };
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
    const { exchange, unjudged } = exchangeOf(incoming, target, request, passed, options.decodedBodyCap ?? DECODED_BODY_CAP);
    const judgeable = !passed.streamed && unjudged === undefined;
    log.addExchange(exchange, judgeable);
    if (unjudged !== undefined) log.addUnjudged(unjudged);
    if (options.keepApiExchanges === true && (path === '/health' || path.startsWith('/api/'))) {
      apiExchanges.add(exchange, exchangeChars(exchange));
    }
    if (!judgeable) {
      judge.passUnjudged(pending);
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
