import { describe, expect, it } from 'vitest';
import { AnswerBudget } from './answer-budget.js';

describe('AnswerBudget', () => {
  /** A budget on a clock the test moves. */
  function budgetAt(requestMs: number) {
    const clock = { now: 0 };
    return { budget: new AnswerBudget(requestMs, () => clock.now), clock };
  }
  const deadline = ({ ms, byCheck }: { ms: number; byCheck: boolean }) => ({ ms, byCheck });

  it("gives a request its own deadline until what is left of the check's is shorter", () => {
    const { budget, clock } = budgetAt(30_000);
    budget.startCheck();
    const slow = budget.begin();
    expect(deadline(slow)).toEqual({ ms: 30_000, byCheck: false });
    clock.now += 105_000;
    slow.done();
    expect(deadline(budget.begin())).toEqual({ ms: 15_000, byCheck: true });
    budget.startCheck();
    expect(deadline(budget.begin())).toEqual({ ms: 30_000, byCheck: false });
  });

  it('spends the time of requests sent together once: 65 reads of 2 s at once cost the check 2 s, not 130', () => {
    const { budget, clock } = budgetAt(30_000);
    budget.startCheck();
    const together = Array.from({ length: 65 }, () => budget.begin());
    clock.now += 2_000;
    for (const request of together) request.done();
    expect(deadline(budget.begin())).toEqual({ ms: 30_000, byCheck: false });
    clock.now += 100_000;
    expect(deadline(budget.begin())).toEqual({ ms: 18_000, byCheck: true });
  });

  it('bounds each request only, outside a check (the fuzzer)', () => {
    const { budget, clock } = budgetAt(30_000);
    const request = budget.begin();
    clock.now += 10 * 60_000;
    request.done();
    expect(deadline(budget.begin())).toEqual({ ms: 30_000, byCheck: false });
  });

  it('gives up after two checks ran out of time, however often each did', () => {
    const budget = new AnswerBudget(1_000);
    budget.startCheck();
    budget.late('GET /api/player');
    budget.late('GET /api/player');
    expect(budget.gaveUp).toBeUndefined();
    budget.startCheck();
    budget.late('POST /api/player/ship');
    expect(budget.gaveUp).toBe('the target kept 2 checks waiting past their time (on GET /api/player, POST /api/player/ship): the checks left are not run');
  });
});
