import { afterEach, describe, expect, it, vi } from 'vitest';
import { Journal, type JournalEntry } from '../journal.js';
import { journalStream, type JournalStreamOptions } from './journal-stream.js';

const entry = (path: string, status = 200): JournalEntry => ({
  atMs: Date.UTC(2030, 0, 1),
  method: 'GET',
  path,
  status,
  category: 'public',
  route: null,
  unknownFields: null,
  ip: '127.0.0.1',
  origin: null,
  playerId: null,
  fault: null,
  generalisedFrom: null,
  requestHeaders: {},
  requestBody: null,
});

const OPTIONS: JournalStreamOptions = { accept: () => true, replay: [], heartbeatMs: 60_000, maxBufferedChars: 100_000 };

/** The data of each event read until `count` events have come (comments and the retry line skipped). */
async function events(reader: ReadableStreamDefaultReader<string>, count: number): Promise<unknown[]> {
  const found: unknown[] = [];
  while (found.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    if (value.startsWith('data: ')) found.push(JSON.parse(value.slice(6)));
  }
  return found;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the journal as server-sent events', () => {
  it('sends the replayed entries, then each accepted entry as it is added, as GET /__mock/journal shows it', async () => {
    const journal = new Journal(10);
    const stream = journalStream(journal, { ...OPTIONS, accept: (candidate) => candidate.path.startsWith('/api/'), replay: [entry('/api/old')] });
    const reader = stream.getReader();
    expect(await reader.read()).toEqual({ done: false, value: 'retry: 1000\n\n' });
    journal.add(entry('/health'));
    journal.add(entry('/api/player', 401));

    expect(await events(reader, 2)).toEqual([
      {
        at: '2030-01-01T00:00:00.000Z',
        method: 'GET',
        path: '/api/old',
        status: 200,
        category: 'public',
        route: null,
        unknownFields: null,
        ip: '127.0.0.1',
        origin: null,
        playerId: null,
        fault: null,
        generalisedFrom: null,
        requestHeaders: {},
        requestBody: null,
      },
      expect.objectContaining({ path: '/api/player', status: 401 }),
    ]);
    await reader.cancel();
  });

  it('unsubscribes and stops its heartbeat when cancelled', async () => {
    vi.useFakeTimers();
    const journal = new Journal(10);
    const reader = journalStream(journal, { ...OPTIONS, heartbeatMs: 1_000 }).getReader();
    await reader.read();
    expect(journal.subscribers).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(await reader.read()).toEqual({ done: false, value: ': heartbeat\n\n' });

    await reader.cancel();
    expect(journal.subscribers).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends, unsubscribed, once a client falls further behind than it may', async () => {
    const journal = new Journal(10);
    const reader = journalStream(journal, { ...OPTIONS, maxBufferedChars: 1_000 }).getReader();
    for (let i = 0; i < 10; i++) journal.add(entry(`/api/${i}`));
    expect(journal.subscribers).toBe(0);

    const chunks: string[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    expect(chunks.at(-1)).toBe(': this client fell too far behind; the stream ends\n\n');
    expect(chunks.join('').length).toBeLessThan(1_500);
  });
});
