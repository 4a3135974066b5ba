import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { KeptBody, type Passed } from './forward.js';
import type { TrafficEvent } from './judged-traffic.js';
import { JudgingQueue, MAX_WAITING_EXCHANGES } from './judging-queue.js';

const passed = (): Passed => ({ status: 200, responseHeaders: {}, requestBody: new KeptBody(), responseBody: new KeptBody(), streamed: false });
const request = { method: 'GET', path: '/health', headers: {}, clientIp: '127.0.0.1', receivedAt: 0 };
const begin = (id: number): TrafficEvent => ({ kind: 'begin', id, request });
const end = (id: number): TrafficEvent => ({ kind: 'end', id, url: '/health', passed: passed(), answeredAt: 0 });

function recording() {
  const applied: string[] = [];
  return { applied, queue: new JudgingQueue({ apply: (event) => applied.push(`${event.kind} ${event.id}`) }) };
}

describe('the judging queue', () => {
  it('judges after the answers are written, every event in the order it came, and counts what waits', async () => {
    const { applied, queue } = recording();
    queue.push(begin(1));
    queue.push(begin(2));
    queue.push(end(2));
    queue.push({ kind: 'abandon', id: 1 });
    expect(applied).toEqual([]);
    expect(queue.waiting).toBe(1);
    await nextTurn();
    expect(applied).toEqual(['begin 1', 'begin 2', 'end 2', 'abandon 1']);
    expect(queue.waiting).toBe(0);
  });

  it('judges at once, dropping nothing, when more exchanges wait than it holds', () => {
    const { applied, queue } = recording();
    for (let id = 1; id <= MAX_WAITING_EXCHANGES + 1; id++) {
      queue.push(begin(id));
      queue.push(end(id));
    }
    expect(applied).toHaveLength(2 * (MAX_WAITING_EXCHANGES + 1));
    expect(queue.waiting).toBe(0);
  });

  it('judges what waits when asked (a summary, a report)', () => {
    const { applied, queue } = recording();
    queue.push(begin(1));
    queue.push(end(1));
    queue.drain();
    expect(applied).toEqual(['begin 1', 'end 1']);
  });
});
