import { describe, expect, it } from 'vitest';
import { CoreHarness } from '../../../test/support/core-harness.js';
import { refusal } from '../../../test/support/control-refusal.js';
import { createMockControl } from '../../hosts/mock-control.js';
import { MAX_FAULT_RULES } from '../faults.js';

function setUp(options: ConstructorParameters<typeof CoreHarness>[0] = {}) {
  const harness = new CoreHarness({ faultSeed: 7, ...options });
  return { harness, control: createMockControl(harness.service, '127.0.0.1') };
}

describe('control API: /__mock/faults', () => {
  it('adds rules as JSON or text, lists them with the seed, and removes one or all', async () => {
    const { harness, control } = setUp({ faults: ['GET /health 503'] });
    const json = await control.addFault({ kind: 'latency', path: '/api/*', minMs: 5, maxMs: 10, probability: 0.5 });
    expect(json).toEqual({ id: 'f2', method: '*', path: '/api/*', probability: 0.5, kind: 'latency', minMs: 5, maxMs: 10, text: '* /api/* latency:5-10@0.5' });
    const text = await control.addFault('POST /api/auth/register reset@10%');
    expect(text).toMatchObject({ id: 'f3', method: 'POST', kind: 'reset', probability: 0.1 });
    const listed = await control.faults();
    expect(listed.seed).toBe(7);
    expect(listed.faults.map((rule) => rule.text)).toEqual(['GET /health 503', '* /api/* latency:5-10@0.5', 'POST /api/auth/register reset@0.1']);

    expect(await control.removeFault('f1')).toMatchObject({ removed: 1 });
    expect((await harness.call('GET', '/health')).status).toBe(200);
    expect(await refusal(control.removeFault('f1'))).toEqual({ status: 404, message: 'No fault rule f1; GET /__mock/faults lists them' });
    expect(await control.clearFaults()).toBe(2);
    expect((await control.faults()).faults).toEqual([]);
  });

  it('refuses a bad rule with a 400 naming what is wrong, and more than the rules it holds with a 409', async () => {
    const { control } = setUp();
    expect(await refusal(control.addFault({ kind: 'status', status: 418 } as never))).toMatchObject({
      status: 400,
      message: 'body /status must be equal to one of the allowed values: 500, 502, 503, 504',
    });
    expect(await refusal(control.addFault('GET /api/player teapot'))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^body \/text is not \[METHOD\] PATH EFFECT/),
    });
    expect(await refusal(control.call('POST', '/__mock/faults', { text: '* * 503', probability: 1 }))).toMatchObject({ status: 400 });
    expect(await refusal(control.call('POST', '/__mock/faults'))).toEqual({ status: 400, message: 'Request body must be a JSON object' });
    for (let i = 0; i < MAX_FAULT_RULES; i++) await control.addFault('GET /nowhere 500');
    expect(await refusal(control.addFault('GET /nowhere 500'))).toMatchObject({ status: 409 });
    expect(await refusal(control.reseedFaults(2 ** 32))).toMatchObject({ status: 400, message: 'body /seed must be <= 4294967295' });
  });

  it('scenarios outage, slow-network and flaky add rules that DELETE /__mock/faults removes', async () => {
    const { harness, control } = setUp();
    const outage = await control.applyScenario('outage', { path: '/api/*' });
    expect(outage['faults']).toMatchObject([{ text: '* /api/* 503' }]);
    expect((await harness.call('GET', '/api/player')).status).toBe(503);
    expect((await harness.call('GET', '/health')).status).toBe(200);
    expect((await control.applyScenario('slow-network'))['faults']).toMatchObject([{ text: '* * latency:200-1500' }]);
    expect((await control.applyScenario('flaky'))['faults']).toMatchObject([
      { text: '* * 500@0.02' },
      { text: '* * 502@0.02' },
      { text: '* * 503@0.02' },
      { text: '* * reset@0.02' },
    ]);
    expect(await control.clearFaults()).toBe(6);
    expect((await harness.call('GET', '/api/player')).status).toBe(401);
    expect(await refusal(control.applyScenario('outage', { path: 'api' }))).toMatchObject({ status: 400 });
  });

  it('capabilities say faults and journal counting are offered', async () => {
    const { control } = setUp();
    expect((await control.call('GET', '/__mock/capabilities'))['capabilities']).toMatchObject({ faults: true, journalCount: true });
  });
});
