import type { Exchange } from '../exchange.js';
import type { RuleId } from '../rules.js';
import { type ClientRuleId, ruleQuote, type Side } from './live-rules.js';

/** One departure from the spec seen on live traffic: whose, by which rule and sentence, and in which exchange. */
export interface LiveFinding {
  rule: RuleId | ClientRuleId;
  side: Side;
  /** The spec's words the rule rests on. */
  sentence: string;
  message: string;
  exchange: Exchange;
}

export function serverFinding(rule: RuleId, message: string, exchange: Exchange): LiveFinding {
  return { rule, side: 'server', sentence: ruleQuote(rule), message, exchange };
}

export function clientFinding(rule: ClientRuleId, message: string, exchange: Exchange): LiveFinding {
  return { rule, side: 'client', sentence: ruleQuote(rule), message, exchange };
}
