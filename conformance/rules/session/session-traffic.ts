import type { Exchange } from '../../common/exchange.js';
import type { AnyRuleId } from '../index.js';
import type { LiveFinding } from './live-finding.js';
import { LiveJudge, type LiveRequest, type PendingRequest } from './live-judge.js';

/** What a session showed of one rule: how many answers it judged, how often the server departed from it, and the first departures. */
export interface SessionReport {
  judged: number;
  breaches: number;
  first: readonly LiveFinding[];
}

const KEPT_FINDINGS = 3;

/**
 * A driver's whole traffic judged as one session, as the proxy judges a client's: every client and player of it,
 * the rate-limit model over all of them, the codes and tokens it saw. The server's departures are kept by rule
 * (a driver's requests depart on purpose: the client's are not its concern).
 */
export class SessionTraffic {
  readonly #judge: LiveJudge;
  readonly #reports = new Map<AnyRuleId, SessionReport & { first: LiveFinding[] }>();

  constructor(gameOrigins: readonly string[]) {
    this.#judge = new LiveJudge(gameOrigins, (rule) => this.#reportOf(rule).judged++);
  }

  /** A request about to be sent: hand its answer to `answered`, or tell `unanswered` that none came. */
  sending(request: LiveRequest): { answered(exchange: Exchange): void; unanswered(): void } {
    const pending: PendingRequest = this.#judge.begin(request);
    return {
      answered: (exchange) => {
        for (const finding of this.#judge.end(pending, exchange)) if (finding.side === 'server') this.#note(finding);
      },
      unanswered: () => this.#judge.abandon(pending),
    };
  }

  /** The first departures kept of every rule the session saw broken, rule by rule. */
  departures(): LiveFinding[] {
    return [...this.#reports.values()].flatMap((report) => report.first);
  }

  report(rule: AnyRuleId): SessionReport {
    return this.#reports.get(rule) ?? { judged: 0, breaches: 0, first: [] };
  }

  #reportOf(rule: AnyRuleId): SessionReport & { first: LiveFinding[] } {
    let report = this.#reports.get(rule);
    if (report === undefined) {
      report = { judged: 0, breaches: 0, first: [] };
      this.#reports.set(rule, report);
    }
    return report;
  }

  #note(finding: LiveFinding): void {
    const report = this.#reportOf(finding.rule);
    report.breaches++;
    if (report.first.length < KEPT_FINDINGS) report.first.push(finding);
  }
}
