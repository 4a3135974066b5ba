import { describe, expect, it } from 'vitest';
import { CONTROL_PLAN } from './admission-plan.js';
import type { Answer } from './answer.js';
import type { ServiceRequest } from './http.js';
import { keptBy } from './kept-handle.js';
import type { RequestContext } from './request-context.js';
import { type StoreEngine, type StoreStatusListener, StoreUnavailable } from './store-engine.js';

/** An engine whose server can be switched off and on between requests. */
function switchableEngine() {
  const engine = {
    up: true as boolean,
    observer: { read() {}, wrote() {}, cleared() {}, delivered() {} },
    attach: () => false,
    afterRequest() {
      if (!engine.up) throw new StoreUnavailable('the server is off');
    },
  } satisfies StoreEngine & { up: boolean };
  return engine;
}

const REQUEST: ServiceRequest = { method: 'GET', path: '/api/player', headers: {}, ip: '127.0.0.1' };
/** keptBy reads only the request of a context. */
const CONTEXT = { request: REQUEST } as RequestContext;
const OK: Answer = { status: 200, headers: {}, body: { success: true } };

describe('keptBy: the store going away and coming back', () => {
  it('is told once each way, however many requests meet the outage', async () => {
    const engine = switchableEngine();
    const told: Parameters<StoreStatusListener>[0][] = [];
    const handle = keptBy(engine, { plan: () => CONTROL_PLAN, run: async () => OK }, (status) => told.push(status));
    expect((await handle(REQUEST, () => CONTEXT)).answer.status).toBe(200);
    engine.up = false;
    const during = (await Promise.all([handle(REQUEST, () => CONTEXT), handle(REQUEST, () => CONTEXT), handle(REQUEST, () => CONTEXT)])).map(
      (kept) => kept.answer,
    );
    expect(during.map((response) => response.status)).toEqual([503, 503, 503]);
    engine.up = true;
    await handle(REQUEST, () => CONTEXT);
    await handle(REQUEST, () => CONTEXT);
    expect(told).toEqual([{ available: false, reason: 'the server is off' }, { available: true }]);
  });
});
