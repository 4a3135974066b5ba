import { describe, expect, it } from 'vitest';
import { judgementsOf } from '../../test/support/judged-exchange.js';
import type { BucketCount } from './rule.js';

const BUCKET_RULES = ['RL-PER-PLAYER', 'RL-WINDOW', 'RL-AUTH-IP', 'RL-EXEMPT'] as const;

/** GET /api/player answered `status` with `remaining` (none: no header): the verdicts of the Limits' bucket rules on it. */
function verdicts(status: number, remaining: number | undefined, bucketCount?: BucketCount) {
  const headers: Record<string, string> = { 'x-ratelimit-limit': '60', 'x-ratelimit-reset': '1' };
  if (remaining !== undefined) headers['x-ratelimit-remaining'] = String(remaining);
  const read = {
    method: 'GET',
    path: '/api/player',
    requestHeaders: { authorization: 'Bearer 3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f' },
    status,
    body: {},
    headers,
  };
  return judgementsOf(BUCKET_RULES, read, bucketCount === undefined ? {} : { bucketCount });
}

describe('the Limits rules of who shares a bucket', () => {
  it('judge nothing of traffic no sender shaped: who counted what is not shown by one answer', () => {
    for (const status of [200, 429]) expect(verdicts(status, 10)).toEqual([]);
  });

  it('judge a shaped count under the rule it tests alone: Remaining less by the requests counted since', () => {
    const count: BucketCount = { rule: 'RL-PER-PLAYER', since: { remaining: 58, counted: 2 }, why: "both tokens' reads" };
    expect(verdicts(200, 56, count)).toEqual([{ rule: 'RL-PER-PLAYER', aspect: 'counted', holds: true }]);
    for (const shown of [57, 58, 55, undefined]) expect(verdicts(200, shown, count)).toEqual([{ rule: 'RL-PER-PLAYER', aspect: 'counted', holds: false }]);
  });

  it('leave out a Remaining not shown where the sender says it need not be, and judge it where shown', () => {
    const count: BucketCount = { rule: 'RL-AUTH-IP', since: { remaining: 5, counted: 1 }, remainingOptional: true, why: 'counted' };
    expect(verdicts(200, undefined, count)).toEqual([]);
    expect(verdicts(200, 5, count)).toEqual([{ rule: 'RL-AUTH-IP', aspect: 'counted', holds: false }]);
  });

  it('hold a spent bucket to a 429 and an unspent one to anything else', () => {
    expect(verdicts(429, 0, { rule: 'RL-WINDOW', spent: true, why: 'spent' })).toEqual([{ rule: 'RL-WINDOW', aspect: 'spent-429', holds: true }]);
    expect(verdicts(200, 0, { rule: 'RL-WINDOW', spent: true, why: 'spent' })).toEqual([{ rule: 'RL-WINDOW', aspect: 'spent-429', holds: false }]);
    expect(verdicts(200, 9, { rule: 'RL-EXEMPT', spent: false, why: 'exempt' })).toEqual([{ rule: 'RL-EXEMPT', aspect: 'unspent-no-429', holds: true }]);
    expect(verdicts(429, 0, { rule: 'RL-EXEMPT', spent: false, why: 'exempt' })).toEqual([{ rule: 'RL-EXEMPT', aspect: 'unspent-no-429', holds: false }]);
  });
});
