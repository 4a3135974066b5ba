import { describe, it } from 'vitest';
import { observe } from './assertions.js';
import { isObject } from '../common/exchange.js';
import { rule } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';
import { expectRule, sentByCheck } from './expect-rule.js';

export function healthChecks(suite: Suite): void {
  describe('health', () => {
    it(rule('HEALTH-NOAUTH', 'GET /health without credentials answers 200'), async () => {
      const exchange = await suite.target.send({ method: 'GET', path: '/health' });
      expectRule('HEALTH-NOAUTH', exchange, { ...sentByCheck('/health', exchange), shaped: true }, 'an answer from GET /health');
    });

    it(rule('HEALTH-BODY', 'the body reports status "ok" and a dotted numeric version'), async (context) => {
      const exchange = await suite.target.send({ method: 'GET', path: '/health' });
      expectRule('HEALTH-BODY', exchange, sentByCheck('/health', exchange), 'a 200 with a JSON object body: status "ok" and a dotted numeric version');
      // The Health response table shows no success field, while successful bodies in general carry one.
      if (isObject(exchange.body) && exchange.body['success'] !== true)
        await observe(context, '/health has no "success": true (the Health response table shows none)');
    });
  });
}
