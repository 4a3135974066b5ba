import { describe, expect, it } from 'vitest';
import { RecentItems } from './recent-items.js';

describe('RecentItems', () => {
  it('keeps the last N, newest first, however many were added', () => {
    const items = new RecentItems<number>(3);
    for (let i = 1; i <= 1_000; i++) items.add(i);
    expect(items.newest()).toEqual([1_000, 999, 998]);
    expect(items.newest(2)).toEqual([1_000, 999]);
    expect(items.newest(50)).toEqual([1_000, 999, 998]);
  });

  it('remembers nothing with a capacity of 0, and forgets everything on clear', () => {
    const none = new RecentItems<number>(0);
    none.add(1);
    expect(none.newest()).toEqual([]);
    const some = new RecentItems<number>(2);
    some.add(1);
    some.clear();
    expect(some.newest()).toEqual([]);
  });
});
