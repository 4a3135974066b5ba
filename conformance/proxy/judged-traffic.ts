import { type Exchange, parsedJson } from '../common/exchange.js';
import { isApiPath, LiveJudge, type LiveRequest, type PendingRequest } from '../rules/session/live-judge.js';
import type { LiveFinding } from '../rules/session/live-finding.js';
import { exchangeChars, FindingsLog } from './findings-log.js';
import { decodedBody, type UndecodedReason } from '../common/decoded-body.js';
import type { KeptBody, Passed } from './forward.js';
import { LatestItems } from './latest-items.js';

/** How many of the API's exchanges a proxy keeps for `--record`: the latest, so memory stays bounded. */
export const RECORDED_EXCHANGES = 50_000;
/** And at most this many characters of their bodies. */
const RECORDED_CHARS = 128 * 1024 * 1024;
/** How many request targets' absolute URLs the judge keeps made: clients call the same few again and again. */
const REMEMBERED_URLS = 1_000;

/** What the forwarding path hands on to be judged, in the order it happened: a request came, got no answer, or its answer ended. */
export type TrafficEvent =
  | { kind: 'begin'; id: number; request: LiveRequest }
  | { kind: 'abandon'; id: number }
  | { kind: 'end'; id: number; url: string; passed: Passed; answeredAt: number };

export interface JudgedTrafficOptions {
  target: URL;
  gameOrigins: readonly string[];
  decodedBodyCap: number;
  keepApiExchanges: boolean;
  onFinding?: ((finding: LiveFinding) => void) | undefined;
}

/** Why an exchange the proxy passed is not judged: a body it does not hold whole, or cannot read. */
export type UnjudgedReason = UndecodedReason | 'past the size the proxy keeps';

/** A body as judged: its text as the sender meant it (decoded), or why it cannot be judged (then its text is what is known of it). */
interface ReadBody {
  text: string;
  unjudged?: UnjudgedReason;
}

/** An empty body, whatever its Content-Encoding says (decoded-body.ts): most requests', read without decoding. */
const EMPTY_BODY: ReadBody = Object.freeze({ text: '' });

function readBody(kept: KeptBody, contentEncoding: string | undefined, cap: number): ReadBody {
  if (kept.size === 0 && !kept.truncated) return EMPTY_BODY;
  if (kept.truncated) return { text: contentEncoding === undefined ? kept.text() : '', unjudged: 'past the size the proxy keeps' };
  const decoded = decodedBody(kept.bytes(), contentEncoding, cap);
  return 'unjudged' in decoded ? { text: '', unjudged: decoded.unjudged } : { text: decoded.bytes.toString('utf8') };
}

/**
 * The traffic the proxy passed, judged event by event in the order it happened (so that what a request's start
 * saw, in flight beside it and learned before it, is what it would have seen judged at once): the findings log,
 * and the API's exchanges kept for `--record`.
 */
export class JudgedTraffic {
  readonly log = new FindingsLog();
  readonly apiExchanges = new LatestItems<Exchange>(RECORDED_EXCHANGES, RECORDED_CHARS);
  readonly #judge: LiveJudge;
  readonly #pending = new Map<number, PendingRequest>();
  readonly #options: JudgedTrafficOptions;
  readonly #prefix: string;
  readonly #absoluteUrls = new Map<string, string>();

  constructor(options: JudgedTrafficOptions) {
    this.#options = options;
    this.#judge = new LiveJudge(options.gameOrigins);
    this.#prefix = options.target.pathname.replace(/\/$/, '');
  }

  apply(event: TrafficEvent): void {
    if (event.kind === 'begin') {
      this.#pending.set(event.id, this.#judge.begin(event.request));
      return;
    }
    const pending = this.#pending.get(event.id)!;
    this.#pending.delete(event.id);
    if (event.kind === 'abandon') this.#judge.abandon(pending);
    else this.#end(pending, event.url, event.passed, event.answeredAt);
  }

  #end(pending: PendingRequest, url: string, passed: Passed, answeredAt: number): void {
    const { request } = pending;
    const cap = this.#options.decodedBodyCap;
    const answer: ReadBody = passed.streamed ? { text: '' } : readBody(passed.responseBody, passed.responseHeaders['content-encoding'], cap);
    const sent = readBody(passed.requestBody, request.headers['content-encoding'], cap);
    const exchange: Exchange = {
      method: request.method,
      url: this.#absoluteUrl(url),
      requestHeaders: request.headers,
      requestBody: passed.requestBody.size === 0 ? undefined : sent.text,
      status: passed.status,
      headers: passed.responseHeaders,
      text: answer.text,
      body: answer.unjudged === undefined ? parsedJson(answer.text) : undefined,
      sentAt: request.receivedAt,
      receivedAt: answeredAt,
    };
    const unjudged = answer.unjudged ?? sent.unjudged;
    const judgeable = !passed.streamed && unjudged === undefined;
    this.log.addExchange(exchange, judgeable);
    if (unjudged !== undefined) this.log.addUnjudged(unjudged);
    if (this.#options.keepApiExchanges && isApiPath(request.path)) this.apiExchanges.add(exchange, exchangeChars(exchange));
    if (!judgeable) {
      this.#judge.passUnjudged(pending);
      return;
    }
    for (const finding of this.#judge.end(pending, exchange)) {
      this.log.addFinding(finding);
      this.#options.onFinding?.(finding);
    }
  }

  /** The target's URL of a request target as the client sent it: parsing it cost the judge as much as a rule. */
  #absoluteUrl(url: string): string {
    let absolute = this.#absoluteUrls.get(url);
    if (absolute === undefined) {
      if (this.#absoluteUrls.size >= REMEMBERED_URLS) this.#absoluteUrls.clear();
      absolute = new URL(`${this.#prefix}${url}`, this.#options.target).toString();
      this.#absoluteUrls.set(url, absolute);
    }
    return absolute;
  }
}
