import { describe, expect, it } from 'vitest';
import { BucketTable } from './bucket-table.js';

const WINDOW = 60_000;
const CATEGORIES = ['public', 'auth'];

describe('BucketTable', () => {
  it('counts up to the limit within a window and opens a new window once it ends', () => {
    const table = new BucketTable(10, CATEGORIES);
    expect(table.hit('public', 'k', 0, WINDOW, 2)).toEqual({ counted: true, count: 1, windowEnd: WINDOW });
    expect(table.hit('public', 'k', 1, WINDOW + 1, 2)).toEqual({ counted: true, count: 2, windowEnd: WINDOW });
    expect(table.hit('public', 'k', WINDOW - 1, 2 * WINDOW - 1, 2)).toEqual({ counted: false, count: 2, windowEnd: WINDOW });
    expect(table.hit('public', 'k', WINDOW, 2 * WINDOW, 2)).toEqual({ counted: true, count: 1, windowEnd: 2 * WINDOW });
  });

  it('refuses new keys while every record holds a live window, and never gives a spent bucket back', () => {
    const table = new BucketTable(100, CATEGORIES);
    for (let i = 0; i < 5; i++) table.hit('public', 'spent', 0, WINDOW, 5);
    let refused = 0;
    for (let i = 0; i < 1_000; i++) {
      const hit = table.hit('public', `flood-${i}`, 1_000, WINDOW + 1_000, 5);
      if ('full' in hit) {
        refused++;
        expect(hit.retryAt).toBe(WINDOW);
      }
    }
    expect(refused).toBe(1_000 - 99);
    expect(table.size).toBe(100);
    expect(table.hit('public', 'spent', WINDOW - 1, 2 * WINDOW, 5)).toMatchObject({ counted: false, count: 5 });
  });

  it('sweeps ended windows to make room, before refusing anyone', () => {
    const table = new BucketTable(3, CATEGORIES);
    for (const key of ['a', 'b', 'c']) table.hit('public', key, 0, WINDOW, 5);
    expect(table.hit('public', 'd', WINDOW - 1, 2 * WINDOW, 5)).toEqual({ full: true, retryAt: WINDOW });
    expect(table.hit('public', 'd', WINDOW, 2 * WINDOW, 5)).toMatchObject({ counted: true, count: 1 });
    expect(table.size).toBe(1);
    expect(table.get('public', 'a', WINDOW)).toBeUndefined();
  });

  it('frees the records of ended windows a few at a time as new keys arrive', () => {
    const table = new BucketTable(1_000, CATEGORIES);
    for (let i = 0; i < 100; i++) table.hit('public', `old-${i}`, 0, WINDOW, 5);
    for (let i = 0; i < 25; i++) table.hit('public', `new-${i}`, WINDOW, 2 * WINDOW, 5);
    expect(table.size).toBe(25);
  });

  it('fills a bucket for a scenario, and is refused the same way when full', () => {
    const table = new BucketTable(1, CATEGORIES);
    expect(table.fill('public', 'a', 0, WINDOW, 5)).toEqual({ count: 5, windowEnd: WINDOW });
    expect(table.hit('public', 'a', 1, WINDOW + 1, 5)).toMatchObject({ counted: false });
    expect(table.fill('public', 'b', 1, WINDOW + 1, 5)).toEqual({ full: true, retryAt: WINDOW });
  });

  it('lists live buckets page by page from a cursor, within a budget of records', () => {
    const table = new BucketTable(100, CATEGORIES);
    for (let i = 0; i < 10; i++) table.hit(i % 2 === 0 ? 'auth' : 'public', `10.0.0.${i}`, 0, WINDOW, 5);
    table.delete('auth', '10.0.0.4');
    const keys = (page: { entries: { key: string }[] }) => page.entries.map(({ key }) => key);
    const first = table.scan(0, 0, 2, 100, 'auth');
    expect(first.entries).toEqual([{ category: 'auth', key: '10.0.0.0', count: 1, windowEnd: WINDOW }, expect.objectContaining({ key: '10.0.0.2' })]);
    const second = table.scan(0, first.next!, 2, 100, 'auth');
    expect(keys(second)).toEqual(['10.0.0.6', '10.0.0.8']);
    expect(table.scan(0, second.next!, 2, 100, 'auth')).toEqual({ entries: [], next: undefined });
    expect(table.scan(0, 0, 10, 3)).toMatchObject({ next: 3 });
    expect(table.scan(WINDOW, 0, 10, 100).entries).toEqual([]);
  });

  it('keeps the categories of one key apart', () => {
    const table = new BucketTable(10, CATEGORIES);
    table.hit('auth', '10.0.0.1', 0, WINDOW, 5);
    expect(table.get('public', '10.0.0.1', 0)).toBeUndefined();
    expect(table.get('auth', '10.0.0.1', 0)).toEqual({ count: 1, windowEnd: WINDOW });
  });
});
