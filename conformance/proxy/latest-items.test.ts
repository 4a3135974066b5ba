import { describe, expect, it } from 'vitest';
import { LatestItems } from './latest-items.js';

describe('LatestItems', () => {
  it('keeps every item, in order, until it is full', () => {
    const items = new LatestItems<number>(3);
    items.add(1);
    items.add(2);
    expect(items.toArray()).toEqual([1, 2]);
    expect(items.length).toBe(2);
    expect(items.dropped).toBe(0);
  });

  it('then lets the oldest go, oldest first however often it wrapped round', () => {
    const items = new LatestItems<number>(3);
    for (let value = 1; value <= 8; value++) items.add(value);
    expect([...items]).toEqual([6, 7, 8]);
    expect(items.length).toBe(3);
    expect(items.dropped).toBe(5);
  });
});

describe('LatestItems with a byte budget', () => {
  it('lets the oldest go once the sizes added pass the budget, keeping the latest whatever its size', () => {
    const items = new LatestItems<string>(100, 10);
    items.add('a', 4);
    items.add('b', 4);
    expect(items.toArray()).toEqual(['a', 'b']);
    items.add('c', 4);
    expect(items.toArray()).toEqual(['b', 'c']);
    items.add('huge', 50);
    expect(items.toArray()).toEqual(['huge']);
    expect(items.dropped).toBe(3);
  });
});
