import type { Exchange } from '../../common/exchange.js';
import { type AnyRuleId, type Knowledge, RULES, type Side, type Verdict } from '../index.js';
import type { Rule, RuleSession } from '../rule.js';

/**
 * The sessions the rules of a list open (`Rule.opens`) for one stream of traffic: each told of every exchange of the
 * API in order, after the rules judged it, with the knowledge the session derived of it.
 */
export class RuleSessions {
  readonly #open: readonly { rule: AnyRuleId; side: Side; session: RuleSession }[];

  constructor(rules: readonly (Rule & { id: AnyRuleId })[] = RULES) {
    this.#open = rules.flatMap((each) => (each.opens === undefined ? [] : [{ rule: each.id, side: each.side, session: each.opens() }]));
  }

  /** Every judgement the sessions make of the exchange. */
  observe(exchange: Exchange, knowledge: Knowledge): Verdict[] {
    const verdicts: Verdict[] = [];
    for (const { rule, side, session } of this.#open) {
      for (const judgement of session.observe(exchange, knowledge)) verdicts.push({ ...judgement, rule, side });
    }
    return verdicts;
  }

  /** The server's state moved behind the traffic: every session forgets what it kept. */
  forget(): void {
    for (const { session } of this.#open) session.forget();
  }
}
