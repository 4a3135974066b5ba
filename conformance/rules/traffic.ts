import type { Exchange } from '../common/exchange.js';
import { answeredAt } from './model/server-time.js';
import { judgeExchange, type RuleId } from './index.js';

/** One response that broke a judgement, and what was expected of it. */
export interface Breach {
  expected: string;
  exchange: Exchange;
}

/** What the run saw of one judgement: how many responses it applied to, and the breaches (the first few kept). */
export interface InvariantReport {
  judged: number;
  breaches: number;
  first: readonly Breach[];
}

const KEPT_BREACHES = 3;

/** The judgements of the rules that hold for every response, reported by the traffic checks (traffic.check.ts). */
export type InvariantId =
  | 'body-json'
  | '429-retry-after'
  | 'error-envelope'
  | 'limit-integer'
  | 'remaining-integer'
  | 'reset-integer'
  | 'limit-present'
  | 'remaining-present'
  | 'reset-present'
  | 'gameplay-success'
  | 'action-points-integers';

/** Every response of a run (control API aside), judged by the rules as it arrives, whatever check sent it. */
export class TrafficInvariants {
  readonly #reports = new Map<string, { judged: number; breaches: number; first: Breach[] }>();

  /** `external`: sent without the game origin, by a caller the spec's limits count. */
  record(path: string, exchange: Exchange, external: boolean): void {
    for (const { rule, aspect, holds, expected } of judgeExchange(exchange, { path, external, serverTime: answeredAt(exchange) })) {
      const key = `${rule} ${aspect}`;
      let report = this.#reports.get(key);
      if (report === undefined) {
        report = { judged: 0, breaches: 0, first: [] };
        this.#reports.set(key, report);
      }
      report.judged++;
      if (holds) continue;
      report.breaches++;
      if (report.first.length < KEPT_BREACHES) report.first.push({ expected, exchange });
    }
  }

  report(rule: RuleId, aspect: InvariantId): InvariantReport {
    return this.#reports.get(`${rule} ${aspect}`) ?? { judged: 0, breaches: 0, first: [] };
  }
}
