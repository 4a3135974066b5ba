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

describe('RecentItems pages', () => {
  it('walks newest first from a cursor, and ends with no cursor', () => {
    const items = new RecentItems<number>(5);
    for (let i = 1; i <= 12; i++) items.add(i);
    const first = items.page(undefined, 2, 100, () => true);
    expect(first).toEqual({ items: [12, 11], next: 9 });
    expect(items.page(first.next, 2, 100, () => true)).toEqual({ items: [10, 9], next: 7 });
    expect(items.page(7, 2, 100, () => true)).toEqual({ items: [8], next: undefined });
  });

  it('keeps its place while items are added, and returns fewer items than the limit when its budget runs out', () => {
    const items = new RecentItems<number>(100);
    for (let i = 1; i <= 10; i++) items.add(i);
    const first = items.page(undefined, 3, 100, () => true);
    items.add(11);
    expect(items.page(first.next, 3, 100, () => true).items).toEqual([7, 6, 5]);
    expect(items.page(undefined, 3, 4, (n) => n % 5 === 0)).toEqual({ items: [10], next: 6 });
  });

  it('lists nothing after clear', () => {
    const items = new RecentItems<number>(3);
    items.add(1);
    items.clear();
    expect(items.page(undefined, 10, 10, () => true)).toEqual({ items: [], next: undefined });
  });
});
