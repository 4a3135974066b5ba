import { HEADERS } from '../../src/spec/limits.js';
import { integerHeader } from '../common/exchange.js';
import { type Judge, judged, type Judgement } from './rule.js';

/** The rules of the Limits whose sentences say who shares a bucket: a count a sender shaped tests one of them. */
export type BucketRuleId = 'RL-PER-PLAYER' | 'RL-WINDOW' | 'RL-AUTH-IP' | 'RL-EXEMPT';

/**
 * What a sender that shaped the traffic knows of a request's bucket (a check: fresh windows, one client, its own
 * requests counted): what its answer is due to show, under the rule whose sentence the count tests.
 */
export interface BucketCount {
  rule: BucketRuleId;
  /** Remaining shown earlier in the window, and the requests the bucket counted since (this one included): Remaining is due to be less by them. */
  since?: { remaining: number; counted: number };
  /** Remaining is judged only where shown (a game origin's answer need not carry the headers). */
  remainingOptional?: boolean;
  /** The bucket is spent (a 429 is due), or is not (none is). */
  spent?: boolean;
  /** Why, as a failure says it: "the 3 reads of player A on the same address not counted". */
  why: string;
}

/** A bucket rule's judge: what a shaped count of its sentence is due to show; nothing of traffic no sender shaped. */
export function countedAsShaped(rule: BucketRuleId): Judge {
  return (exchange, knowledge): Judgement[] => {
    const count = knowledge.bucketCount;
    if (count?.rule !== rule) return [];
    const judgements: Judgement[] = [];
    if (count.spent === true)
      judgements.push(judged('spent-429', exchange.status === 429, `429: ${count.why}`, `answered ${exchange.status}: expected 429 (${count.why})`));
    if (count.spent === false) judgements.push(judged('unspent-no-429', exchange.status !== 429, `no 429: ${count.why}`));
    if (count.since !== undefined) {
      const remaining = integerHeader(exchange, HEADERS.rateLimitRemaining);
      const due = count.since.remaining - count.since.counted;
      if (remaining !== undefined || count.remainingOptional !== true) {
        judgements.push(
          judged(
            'counted',
            remaining === due,
            `X-RateLimit-Remaining ${due}: ${count.why}`,
            `X-RateLimit-Remaining ${remaining ?? 'missing'}: expected ${due} (${count.why})`,
          ),
        );
      }
    }
    return judgements;
  };
}
