import type { Exchange } from '../exchange.js';
import type { LiveFinding } from '../live/live-finding.js';
import type { Side } from '../live/live-rules.js';
import { LatestItems } from './latest-items.js';

/** How many exchanges a run keeps for its HAR file and its page: the latest, so a long session stays bounded. */
export const KEPT_EXCHANGES = 5_000;
/** How many findings a run keeps whole; beyond them it only counts (by rule and side). */
export const KEPT_FINDINGS = 1_000;

export interface RuleCount {
  rule: string;
  side: Side;
  sentence: string;
  count: number;
}

/** What a proxy run saw: its findings (the first kept whole, all counted by rule) and its latest exchanges. */
export class FindingsLog {
  readonly findings: LiveFinding[] = [];
  readonly exchanges = new LatestItems<{ exchange: Exchange; judged: boolean }>(KEPT_EXCHANGES);
  readonly #counts = new Map<string, RuleCount>();
  exchangeCount = 0;
  findingCount = 0;

  addExchange(exchange: Exchange, judged: boolean): void {
    this.exchangeCount++;
    this.exchanges.add({ exchange, judged });
  }

  addFinding(finding: LiveFinding): void {
    this.findingCount++;
    if (this.findings.length < KEPT_FINDINGS) this.findings.push(finding);
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
