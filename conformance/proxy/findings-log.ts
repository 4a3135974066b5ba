import { type Exchange, maskedExchange } from '../common/exchange.js';
import type { LiveFinding } from '../rules/session/live-finding.js';
import type { Side } from '../rules/index.js';
import { LatestItems } from './latest-items.js';

/** How many exchanges a run keeps for its HAR file and its page: the latest, so a long session stays bounded. */
export const KEPT_EXCHANGES = 5_000;
/** How many findings a run keeps whole; beyond them it only counts (by rule and side). */
export const KEPT_FINDINGS = 1_000;
/** At most this many characters of the exchanges kept for the HAR file and the page (the oldest let go first). */
const KEPT_EXCHANGE_CHARS = 64 * 1024 * 1024;
/** A finding keeps this much of each body of its exchange: enough to read it, and 1,000 findings stay small. */
const FINDING_BODY_CHARS = 16 * 1024;

/** The characters an exchange holds in its bodies: what keeping it costs, as far as it is not fixed. */
export function exchangeChars(exchange: Exchange): number {
  return exchange.text.length + (exchange.requestBody?.length ?? 0);
}

const cut = (text: string) => (text.length > FINDING_BODY_CHARS ? `${text.slice(0, FINDING_BODY_CHARS)}… (${text.length} characters in all)` : text);

/** The exchange as a finding keeps it: each body cut to FINDING_BODY_CHARS. */
function keptForFinding(exchange: Exchange): Exchange {
  if (exchangeChars(exchange) <= FINDING_BODY_CHARS) return exchange;
  return { ...exchange, text: cut(exchange.text), requestBody: exchange.requestBody === undefined ? undefined : cut(exchange.requestBody) };
}

export interface RuleCount {
  rule: string;
  side: Side;
  sentence: string;
  count: number;
}

/** What a proxy run saw: its findings (the first kept whole, all counted by rule) and its latest exchanges, secrets masked. */
export class FindingsLog {
  readonly findings: LiveFinding[] = [];
  readonly #exchanges = new LatestItems<Exchange>(KEPT_EXCHANGES, KEPT_EXCHANGE_CHARS);
  /** Those of them passed unjudged (a few): a flag kept with every exchange would be one more object the garbage collector copies for each. */
  readonly #passedUnjudged = new WeakSet<Exchange>();
  readonly #counts = new Map<string, RuleCount>();
  readonly #unjudged = new Map<string, number>();
  exchangeCount = 0;
  findingCount = 0;

  /** An exchange passed on but not judged, for a reason the summary and the page count (a body past a cap, or one that does not decode). */
  addUnjudged(reason: string): void {
    this.#unjudged.set(reason, (this.#unjudged.get(reason) ?? 0) + 1);
  }

  /** The exchanges left unjudged, by why. */
  unjudged(): { reason: string; count: number }[] {
    return [...this.#unjudged].map(([reason, count]) => ({ reason, count }));
  }

  /** Kept as it passed: masked only when a report reads it (most of a session's exchanges are let go unread). */
  addExchange(exchange: Exchange, judged: boolean): void {
    this.exchangeCount++;
    this.#exchanges.add(exchange, exchangeChars(exchange));
    if (!judged) this.#passedUnjudged.add(exchange);
  }

  /** The latest exchanges, oldest first, with their secrets masked, as every report written from the log shows them. */
  *maskedExchanges(): Iterable<{ exchange: Exchange; judged: boolean }> {
    for (const exchange of this.#exchanges) yield { exchange: maskedExchange(exchange), judged: !this.#passedUnjudged.has(exchange) };
  }

  addFinding(finding: LiveFinding): void {
    this.findingCount++;
    if (this.findings.length < KEPT_FINDINGS) this.findings.push({ ...finding, exchange: keptForFinding(maskedExchange(finding.exchange)) });
    const key = `${finding.side} ${finding.rule}`;
    const count = this.#counts.get(key);
    if (count === undefined) this.#counts.set(key, { rule: finding.rule, side: finding.side, sentence: finding.sentence, count: 1 });
    else count.count++;
  }

  /** Findings by rule and side, most first. */
  byRule(): RuleCount[] {
    return [...this.#counts.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
  }

  count(side: Side): number {
    return this.byRule()
      .filter((each) => each.side === side)
      .reduce((sum, each) => sum + each.count, 0);
  }
}
