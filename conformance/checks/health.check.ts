import { describe, it } from 'vitest';
import { expectThat, observe } from '../assertions.js';
import { isObject } from '../exchange.js';
import { rule } from '../rules.js';
import type { Suite } from '../suite.js';

export function healthChecks(suite: Suite): void {
  describe('health', () => {
    it(rule('HEALTH-NOAUTH', 'GET /health without credentials answers 200'), async () => {
      const exchange = await suite.target.send({ method: 'GET', path: '/health' });
      expectThat(exchange, exchange.status === 200, 'status 200');
    });

    it(rule('HEALTH-BODY', 'the body reports status "ok" and a dotted numeric version'), async (context) => {
      const exchange = await suite.target.send({ method: 'GET', path: '/health' });
      expectThat(exchange, isObject(exchange.body), 'a JSON object body');
      const body = exchange.body as Record<string, unknown>;
      expectThat(exchange, body['status'] === 'ok', 'status "ok"');
      expectThat(exchange, typeof body['version'] === 'string' && /^\d+\.\d+\.\d+$/.test(body['version']), 'version as <major>.<minor>.<patch>');
      // The Health response table shows no success field, while successful bodies in general carry one.
      if (body['success'] !== true) await observe(context, '/health has no "success": true (the Health response table shows none)');
    });
  });
}
