import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, SCAN_BUDGET } from '../../src/core/control/listing.js';
import { CoreHarness } from '../support/core-harness.js';

interface Page {
  nextCursor: string | null;
  [name: string]: unknown;
}

const BUCKETS = 3 * SCAN_BUDGET;

async function list(harness: CoreHarness, path: string, query = ''): Promise<Page> {
  const response = await harness.service.handle({ method: 'GET', path, query, headers: {}, ip: '127.0.0.1' });
  expect(response.status).toBe(200);
  return response.body as Page;
}

/** Every entry of a listing, following nextCursor, with the size of the largest page. */
async function walk(harness: CoreHarness, path: string, name: string, query = '') {
  const entries: unknown[] = [];
  let largest = 0;
  let cursor: string | null = null;
  do {
    const page: Page = await list(harness, path, `${query}${cursor === null ? '' : `&cursor=${cursor}`}`);
    const items = page[name] as unknown[];
    largest = Math.max(largest, items.length);
    entries.push(...items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return { entries, largest };
}

describe('reliability: control listings of a large state', () => {
  const harness = new CoreHarness({ journalSize: 2 * SCAN_BUDGET, bounds: { outboxSize: 2_000 } });

  beforeAll(async () => {
    for (let i = 0; i < BUCKETS; i++) await harness.call('GET', '/health', { ip: `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}` });
    for (let i = 0; i < 1_500; i++) await harness.call('POST', '/__mock/players', { body: { email: `p${i}@example.com` } });
    for (let i = 0; i < 1_500; i++)
      await harness.call('POST', '/api/auth/register', { body: { email: `r${i}@example.com` }, ip: `172.16.${i >> 8}.${i & 255}` });
    expect(harness.service.store.buckets.size).toBe(BUCKETS + 1_500);
  });

  it('answers the first page of each listing with at most the default page size, and a cursor to go on', async () => {
    for (const [path, name] of [
      ['/__mock/buckets', 'buckets'],
      ['/__mock/players', 'players'],
      ['/__mock/outbox', 'messages'],
      ['/__mock/journal', 'entries'],
    ] as const) {
      const page = await list(harness, path);
      expect(page[name], path).toHaveLength(DEFAULT_PAGE_SIZE);
      expect(page.nextCursor, path).toMatch(/^\d+$/);
    }
  });

  it('visits every bucket exactly once by following the cursors, a page never larger than its limit', async () => {
    const { entries, largest } = await walk(harness, '/__mock/buckets', 'buckets', `limit=${MAX_PAGE_SIZE}`);
    expect(largest).toBe(MAX_PAGE_SIZE);
    const keys = entries.map((bucket) => `${(bucket as { category: string }).category}:${(bucket as { key: string }).key}`);
    expect(new Set(keys).size).toBe(BUCKETS + 1_500);
    expect(keys).toHaveLength(BUCKETS + 1_500);
  });

  it('bounds the records a filtered page inspects: a filter matching few entries answers short pages with a cursor', async () => {
    const first = await list(harness, '/__mock/buckets', 'category=auth');
    expect(first.buckets).toEqual([]);
    expect(first.nextCursor).toBe(String(SCAN_BUDGET));
    const { entries } = await walk(harness, '/__mock/buckets', 'buckets', 'category=auth');
    expect(entries).toHaveLength(1_500);
    const oneKey = await list(harness, '/__mock/buckets', 'key=172.16.0.7');
    expect(oneKey).toEqual({ success: true, buckets: [expect.objectContaining({ category: 'auth', key: '172.16.0.7', count: 1 })], nextCursor: null });
  });

  it('pages players, codes and the journal the same way, with their filters', async () => {
    expect((await walk(harness, '/__mock/players', 'players', 'limit=1000')).entries).toHaveLength(1_500);
    expect((await list(harness, '/__mock/players', 'email=P7@example.com')).players).toEqual([expect.objectContaining({ email: 'p7@example.com' })]);
    expect((await walk(harness, '/__mock/outbox', 'messages', 'limit=1000')).entries).toHaveLength(1_500);
    expect((await list(harness, '/__mock/outbox', 'email=r9@example.com')).messages).toEqual([expect.objectContaining({ email: 'r9@example.com' })]);
    const journal = await walk(harness, '/__mock/journal', 'entries', 'limit=1000');
    expect(journal.entries).toHaveLength(2 * SCAN_BUDGET);
    const registrations = await walk(harness, '/__mock/journal', 'entries', 'path=/api/auth/register&status=200');
    expect(registrations.entries).toHaveLength(1_500);
  });

  it('refuses a limit or cursor out of range with a 400 envelope', async () => {
    for (const query of ['limit=0', `limit=${MAX_PAGE_SIZE + 1}`, 'cursor=-1', 'cursor=x', 'limit=1e3']) {
      const response = await harness.service.handle({ method: 'GET', path: '/__mock/buckets', query, headers: {}, ip: '127.0.0.1' });
      expect(response.status, query).toBe(400);
      expect(response.body, query).toEqual({ error: expect.stringMatching(/^query (limit|cursor) must be an integer from/) });
    }
  });
});
