import type { Exchange } from '../../common/exchange.js';
import { type AnyRuleId, type RuleId, ruleWords, type Side } from '../index.js';

/** One departure from the spec seen on live traffic: whose, by which rule and sentence, and in which exchange. */
export interface LiveFinding {
  rule: AnyRuleId;
  side: Side;
  /** What the spec says of it, as a reader takes it in (ruleWords). */
  sentence: string;
  message: string;
  exchange: Exchange;
}

export function finding(rule: AnyRuleId, side: Side, message: string, exchange: Exchange): LiveFinding {
  return { rule, side, sentence: ruleWords(rule), message, exchange };
}

export const serverFinding = (rule: RuleId, message: string, exchange: Exchange) => finding(rule, 'server', message, exchange);
