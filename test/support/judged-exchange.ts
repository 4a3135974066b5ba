import type { Exchange } from '../../conformance/common/exchange.js';
import { type AnyRuleId, judgeExchange, type Knowledge } from '../../conformance/rules/index.js';

/** What a rule's unit test says of one exchange: the request, and the answer (a JSON body unless `text` is given). */
export interface ExchangeSketch {
  method: string;
  path: string;
  requestHeaders?: Record<string, string>;
  /** A JSON request body, sent as text. */
  json?: unknown;
  status: number;
  body?: unknown;
  /** The answer's raw text where it is no JSON body. */
  text?: string;
  headers?: Record<string, string>;
}

/** One exchange with game.example, at the instant 1–2 ms, its answer labelled JSON. */
export function exchangeOf({ method, path, requestHeaders = {}, json, status, body, text, headers = {} }: ExchangeSketch): Exchange {
  return {
    method,
    url: `https://game.example${path}`,
    requestHeaders: json === undefined ? requestHeaders : { 'content-type': 'application/json', ...requestHeaders },
    requestBody: json === undefined ? undefined : JSON.stringify(json),
    status,
    headers: { 'content-type': 'application/json', ...headers },
    text: text ?? JSON.stringify(body),
    body,
    sentAt: 1,
    receivedAt: 2,
  };
}

/** What a sender outside the game origins knows of an exchange on `path` at that instant, and `more`. */
export const knowledgeOf = (path: string, more: Partial<Knowledge> = {}): Knowledge => ({
  path,
  external: true,
  serverTime: { fromMs: 1, toMs: 2 },
  ...more,
});

/** The judgements the rules among `rules` make of the exchange, each as its rule, aspect and whether it holds. */
export function judgementsOf(rules: readonly AnyRuleId[], sketch: ExchangeSketch, more: Partial<Knowledge> = {}) {
  return judgeExchange(exchangeOf(sketch), knowledgeOf(sketch.path, more))
    .filter((verdict) => rules.includes(verdict.rule))
    .map(({ rule, aspect, holds }) => ({ rule, aspect, holds }));
}
