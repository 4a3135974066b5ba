import { describe, expect, it } from 'vitest';
import type { JournalEntry } from './journal-entry.js';
import { JournalRing } from './journal-ring.js';

const entry = (status: number): JournalEntry => ({
  atMs: status,
  method: 'GET',
  path: `/p/${status}`,
  status,
  category: 'read',
  ip: '127.0.0.1',
  origin: null,
  route: 'getPlayer',
  unknownFields: status % 2 === 0 ? ['extra'] : null,
  playerId: null,
  fault: null,
  generalisedFrom: null,
  requestHeaders: {},
  requestBody: null,
});
const statuses = (entries: JournalEntry[]) => entries.map((e) => e.status);
const all = () => true;

describe('JournalRing', () => {
  it('keeps the last N, newest first, each whole, however many were added', () => {
    const ring = new JournalRing(3);
    for (let i = 1; i <= 1_000; i++) ring.add(entry(i));
    expect(statuses(ring.newest())).toEqual([1_000, 999, 998]);
    expect(statuses(ring.newest(2))).toEqual([1_000, 999]);
    expect(ring.newest(1)).toEqual([entry(1_000)]);
    expect(ring.newest()[1]).toEqual(entry(999));
  });

  it('hands out copies: an entry read stays as it was when later ones overwrite its slot', () => {
    const ring = new JournalRing(2);
    ring.add(entry(1));
    const [first] = ring.newest();
    const page = ring.page(undefined, 10, 10, all).items;
    const added = entry(2);
    ring.add(added);
    ring.add(entry(3));
    added.status = 99;
    expect(first).toEqual(entry(1));
    expect(page).toEqual([entry(1)]);
    expect(statuses(ring.newest())).toEqual([3, 2]);
  });

  it('pages newest first from a cursor across the wrap, keeps its place while entries are added, and ends with no cursor', () => {
    const ring = new JournalRing(5);
    for (let i = 1; i <= 12; i++) ring.add(entry(i));
    const first = ring.page(undefined, 2, 100, all);
    expect({ items: statuses(first.items), next: first.next }).toEqual({ items: [12, 11], next: 9 });
    ring.add(entry(13));
    const second = ring.page(first.next, 2, 100, all);
    expect({ items: statuses(second.items), next: second.next }).toEqual({ items: [10, 9], next: undefined });
    expect(statuses(ring.page(undefined, 10, 3, (e) => e.status % 2 === 1).items)).toEqual([13, 11]);
  });

  it('takes out what a filter takes, keeping the others in order with their requests, and adds on after them', () => {
    const ring = new JournalRing(5);
    for (let i = 1; i <= 7; i++) ring.add({ ...entry(i), requestBody: `body ${i}` });
    expect(ring.remove((e) => e.status % 2 === 1)).toBe(3);
    expect(ring.remove((e) => e.status === 99)).toBe(0);
    expect(ring.size).toBe(2);
    expect(ring.newest().map((e) => e.requestBody)).toEqual(['body 6', 'body 4']);
    for (let i = 8; i <= 11; i++) ring.add(entry(i));
    expect(statuses(ring.newest())).toEqual([11, 10, 9, 8, 6]);
  });

  it('counts what a filter takes among the entries held', () => {
    const ring = new JournalRing(4);
    for (let i = 1; i <= 9; i++) ring.add(entry(i));
    expect(ring.count(all)).toBe(4);
    expect(ring.count((e) => e.unknownFields !== null)).toBe(2);
  });

  it('remembers nothing with a capacity of 0, forgets everything on clear, and keeps what comes after', () => {
    const none = new JournalRing(0);
    none.add(entry(1));
    expect(none.newest()).toEqual([]);
    expect(none.count(all)).toBe(0);
    const some = new JournalRing(3);
    some.add(entry(1));
    some.add(entry(2));
    some.clear();
    expect(some.newest()).toEqual([]);
    expect(some.page(undefined, 10, 10, all)).toEqual({ items: [], next: undefined });
    some.add(entry(3));
    expect(statuses(some.newest())).toEqual([3]);
  });

  it("lets go of the oldest requests' headers and bodies past its byte budget, keeping every entry's line", () => {
    const withBody = (status: number): JournalEntry => ({ ...entry(status), requestHeaders: { 'content-type': 'text/plain' }, requestBody: 'x'.repeat(100) });
    const ring = new JournalRing(10, 370); // three entries of 122 bytes each
    for (let status = 1; status <= 6; status++) ring.add(withBody(status));
    const newest = ring.newest();
    expect(statuses(newest)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(newest.map((kept) => kept.requestBody === null)).toEqual([false, false, false, true, true, true]);
    expect(newest[5]!.requestHeaders).toEqual({});
    ring.clear();
    ring.add(withBody(7));
    ring.add(withBody(8));
    ring.add(withBody(9));
    expect(ring.newest().map((kept) => kept.requestBody === null)).toEqual([false, false, false]);
  });
});
