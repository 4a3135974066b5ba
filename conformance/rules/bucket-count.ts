import { HEADERS } from '../../src/spec/limits.js';
import { integerHeader } from '../common/exchange.js';
import { type BucketRuleId, type Judge, judged, type Judgement } from './rule.js';

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
