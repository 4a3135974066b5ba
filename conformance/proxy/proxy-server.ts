import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalIp, firstHop, LONGEST_ADDRESS, withoutIpv4Mapping } from '../../src/spec/client-address.js';
import type { Exchange } from '../common/exchange.js';
import type { LiveRequest } from '../rules/session/live-judge.js';
import type { LiveFinding } from '../rules/session/live-finding.js';
import type { FindingsLog } from './findings-log.js';
import { DECODED_BODY_CAP } from '../common/decoded-body.js';
import { createForwarder, flatHeaders, KeptBody } from './forward.js';
import { JudgedTraffic } from './judged-traffic.js';
import { JudgingQueue } from './judging-queue.js';
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

export interface RunningProxy {
  url: string;
  /** What the proxy judged, once it has judged every exchange it passed (reading it judges those that wait). */
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
 * Forwards every request to the target unchanged (Host aside) and judges each exchange after its answer is written
 * (judging-queue.ts); the findings page and its data are served under /__proxy, never forwarded.
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { target } = options;
  const forwarder = createForwarder(target);
  const traffic = new JudgedTraffic({
    target,
    gameOrigins: options.gameOrigins,
    decodedBodyCap: options.decodedBodyCap ?? DECODED_BODY_CAP,
    keepApiExchanges: options.keepApiExchanges === true,
    onFinding: options.onFinding,
  });
  const queue = new JudgingQueue(traffic);
  let lastId = 0;

  function handle(incoming: IncomingMessage, outgoing: ServerResponse): void {
    const url = incoming.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (path === PROXY_PREFIX || path.startsWith(`${PROXY_PREFIX}/`)) {
      servePage(incoming, outgoing, path, { log: traffic.log, waiting: queue.waiting });
      return;
    }
    const id = ++lastId;
    const request: LiveRequest = {
      method: incoming.method ?? 'GET',
      path,
      headers: flatHeaders(incoming.headers),
      clientIp: clientIp(incoming, options.clientIpHeader),
      receivedAt: Date.now(),
    };
    queue.push({ kind: 'begin', id, request });
    forwarder.forward(incoming, outgoing, new KeptBody(), (outcome) => {
      if (outcome instanceof Error) {
        queue.push({ kind: 'abandon', id });
        refuseUnreachable(outgoing, target, outcome);
      } else queue.push({ kind: 'end', id, url, passed: outcome, answeredAt: Date.now() });
    });
  }

  const server: Server = createServer({ keepAliveTimeout: 10_000 }, handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    get log() {
      queue.drain();
      return traffic.log;
    },
    get apiExchanges() {
      queue.drain();
      return traffic.apiExchanges.toArray();
    },
    get droppedApiExchanges() {
      queue.drain();
      return traffic.apiExchanges.dropped;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        forwarder.close();
      }),
  };
}
