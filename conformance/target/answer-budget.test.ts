import { describe, expect, it } from 'vitest';
import { AnswerBudget } from './answer-budget.js';

describe('AnswerBudget', () => {
  it("gives a request its own deadline until what is left of the check's is shorter", () => {
    const budget = new AnswerBudget(30_000);
    budget.startCheck();
    expect(budget.next()).toEqual({ ms: 30_000, byCheck: false });
    budget.spend(105_000);
    expect(budget.next()).toEqual({ ms: 15_000, byCheck: true });
    budget.startCheck();
    expect(budget.next()).toEqual({ ms: 30_000, byCheck: false });
  });

  it('bounds each request only, outside a check (the fuzzer)', () => {
    const budget = new AnswerBudget(30_000);
    budget.spend(10 * 60_000);
    expect(budget.next()).toEqual({ ms: 30_000, byCheck: false });
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
