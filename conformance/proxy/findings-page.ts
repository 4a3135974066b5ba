import type { IncomingMessage, ServerResponse } from 'node:http';
import { LOOPBACK_HOST, LOOPBACK_ORIGIN, LOOPBACK_PEER } from '../../src/spec/loopback.js';
import { evidence } from '../common/exchange.js';
import type { FindingsLog } from './findings-log.js';
import { PAGE_HTML, PAGE_SCRIPT } from './page-assets.js';

/** The proxy's own paths: never forwarded. */
export const PROXY_PREFIX = '/__proxy';

const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/**
 * The control API's rules (docs/control-api.md): a loopback peer, addressed by a loopback name (against DNS
 * rebinding), and a browser page of a loopback origin (so another site cannot read the exchanges).
 */
function refusal(incoming: IncomingMessage): string | undefined {
  const peer = incoming.socket.remoteAddress ?? '';
  if (!LOOPBACK_PEER.test(peer)) return 'the findings page answers loopback clients only';
  const host = incoming.headers.host;
  if (host !== undefined && !LOOPBACK_HOST.test(host)) return `the findings page answers only requests addressed to a loopback name, not ${host}`;
  const origin = incoming.headers.origin;
  if (origin !== undefined && !LOOPBACK_ORIGIN.test(origin)) return `the findings page answers pages of loopback origins only, not ${origin}`;
  return undefined;
}

/** What the page reads: the log, and how many exchanges wait to be judged (judging-queue.ts). */
export interface JudgedSoFar {
  log: FindingsLog;
  waiting: number;
}

/** The findings as the page and a script read them: counts by rule, then each kept finding with its exchange. */
function findingsJson({ log, waiting }: JudgedSoFar): string {
  return JSON.stringify({
    exchanges: log.exchangeCount,
    waiting,
    findings: log.findingCount,
    unjudged: log.unjudged(),
    byRule: log.byRule(),
    kept: log.findings.map((finding) => ({
      rule: finding.rule,
      side: finding.side,
      sentence: finding.sentence,
      message: finding.message,
      request: `${finding.exchange.method} ${finding.exchange.url}`,
      status: finding.exchange.status,
      at: new Date(finding.exchange.sentAt).toISOString(),
      exchange: evidence(finding.exchange),
    })),
  });
}

/** The page, its script, or the findings as JSON, to loopback callers only. */
function pageAnswer(incoming: IncomingMessage, path: string, judged: JudgedSoFar): { status: number; type: string; body: string } {
  const refused = refusal(incoming);
  if (refused !== undefined) return { status: 403, type: 'application/json', body: JSON.stringify({ error: refused }) };
  if (incoming.method !== 'GET' && incoming.method !== 'HEAD') {
    return { status: 405, type: 'application/json', body: JSON.stringify({ error: `${incoming.method} is not allowed on ${path}` }) };
  }
  if (path === `${PROXY_PREFIX}/ui` || path === PROXY_PREFIX) return { status: 200, type: 'text/html; charset=utf-8', body: PAGE_HTML };
  if (path === `${PROXY_PREFIX}/ui/page.js`) return { status: 200, type: 'text/javascript; charset=utf-8', body: PAGE_SCRIPT };
  if (path === `${PROXY_PREFIX}/findings`) return { status: 200, type: 'application/json', body: findingsJson(judged) };
  return {
    status: 404,
    type: 'application/json',
    body: JSON.stringify({ error: `${path} is not a page of the proxy: ${PROXY_PREFIX}/ui, ${PROXY_PREFIX}/findings` }),
  };
}

export function servePage(incoming: IncomingMessage, outgoing: ServerResponse, path: string, judged: JudgedSoFar): void {
  const { status, type, body } = pageAnswer(incoming, path, judged);
  if (status === 405) outgoing.setHeader('allow', 'GET, HEAD');
  outgoing.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
}
