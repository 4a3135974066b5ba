import { expectThat } from './assertions.js';
import { apiPath, type Exchange } from '../common/exchange.js';
import type { Suite } from '../fixtures/suite.js';
import { answeredAt } from '../rules/model/server-time.js';
import { type Judgement, type Knowledge, type RuleId, ruleOf } from '../rules/index.js';
import type { BucketCount } from '../rules/rule.js';

/** What a check knows of an exchange it sent without the game origin; `serverTime` where it knows better than the Date header. */
export function sentByCheck(path: string, exchange: Exchange, serverTime = answeredAt(exchange)): Knowledge {
  return { path, external: true, serverTime };
}

/** What a check knows of a request it sent to `path` so that only its parameters could be wrong (paced, a fresh client, a small JSON body). */
export function parametersAlone(path: string, exchange: Exchange): Knowledge {
  return { ...sentByCheck(path, exchange), parametersAlone: true };
}

/** What a check knows of an exchange the suite's target sent, its path read from its URL. */
export function sentBySuite(suite: Suite, exchange: Exchange): Knowledge {
  return sentByCheck(apiPath(suite.config.baseUrl, exchange.url), exchange);
}

/**
 * Asserts through the rule's own judgement, as the fuzzer and the proxy judge it: each judgement it makes of the
 * exchange holds, and it makes one at all (`ifNotJudged` says what was due for it to apply).
 */
export function expectRule(id: RuleId, exchange: Exchange, knowledge: Knowledge, ifNotJudged: string): void {
  const judgements = ruleOf(id).judge?.(exchange, knowledge) ?? [];
  expectThat(exchange, judgements.length > 0, ifNotJudged);
  for (const judgement of judgements) expectJudgement(exchange, judgement);
}

/** A request of the table's routes the check sent as the route accepts it (a valid token): due its 200, with a success envelope (ENV-SUCCESS). */
export function expectAccepted(suite: Suite, exchange: Exchange, what: string): void {
  expectRule('ENV-SUCCESS', exchange, { ...sentBySuite(suite, exchange), shaped: true }, what);
}

/** Asserts one judgement a rule makes, where the check knows the rule applies. */
export function expectJudgement(exchange: Exchange, judgement: Judgement): void {
  expectThat(exchange, judgement.holds, judgement.expected);
}

/** Asserts what the check shaped a request's bucket to show, through the Limits rule whose sentence the count tests. */
export function expectBucketCount(suite: Suite, exchange: Exchange, count: BucketCount): void {
  expectRule(count.rule, exchange, { ...sentBySuite(suite, exchange), bucketCount: count }, `a judgement of ${count.rule}'s count (${count.why})`);
}
