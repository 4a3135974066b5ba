import { expectThat } from './assertions.js';
import type { Exchange } from '../target/exchange.js';
import { answeredAt } from '../model/server-time.js';
import { type Knowledge, type RuleId, ruleOf } from '../rules/index.js';

/** What a check knows of an exchange it sent without the game origin; `serverTime` where it knows better than the Date header. */
export function sentByCheck(path: string, exchange: Exchange, serverTime = answeredAt(exchange)): Knowledge {
  return { path, external: true, serverTime };
}

/**
 * Asserts through the rule's own judgement, as the fuzzer and the proxy judge it: each judgement it makes of the
 * exchange holds, and it makes one at all (`ifNotJudged` says what was due for it to apply).
 */
export function expectRule(id: RuleId, exchange: Exchange, knowledge: Knowledge, ifNotJudged: string): void {
  const judgements = ruleOf(id).judge?.(exchange, knowledge) ?? [];
  expectThat(exchange, judgements.length > 0, ifNotJudged);
  for (const judgement of judgements) expectThat(exchange, judgement.holds, judgement.expected);
}
