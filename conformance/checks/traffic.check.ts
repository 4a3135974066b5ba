import { describe, it, type TestContext } from 'vitest';
import { expectThat } from './assertions.js';
import { expectBucketCount } from './expect-rule.js';
import { PROXY_RULES, rule, type RuleId } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';
import type { InvariantId } from '../rules/traffic.js';

// Invariants of every response, judged on all traffic of the run (the control API aside), whatever check sent
// it: the run's plan puts this file after all others (see check-files.ts).

const NO_429 = 'the run received no 429';

/** Fails on the first response of the run that broke the invariant (the invariant's own verdict, reported); skips with `ifNone` when none was judged. */
function expectInvariant(suite: Suite, context: TestContext, rule: RuleId, id: InvariantId, responses: string, ifNone: string): void {
  const report = suite.target.traffic.report(rule, id);
  if (report.judged === 0) {
    context.skip(ifNone);
    return;
  }
  const first = report.first[0];
  if (first === undefined) return;
  expectThat(first.exchange, false, `${first.expected} (${report.breaches} of the ${report.judged} ${responses} of the run broke it; the first)`);
}

/** The server rules the session judges over the traffic of many requests: the proxy's judge of live traffic. */
const SESSION_RULES = PROXY_RULES.filter((each) => each.side === 'server').map((each) => each.id as RuleId);

/** Fails on the first departure the session judge found (the rule's own verdict, reported); skips when no answer of the run was the rule's to judge. */
function expectSessionHeld(suite: Suite, context: TestContext, id: RuleId): void {
  const report = suite.target.session.report(id);
  if (report.judged === 0) {
    context.skip("no answer of the run was the rule's to judge");
    return;
  }
  const first = report.first[0];
  if (first === undefined) return;
  expectThat(
    first.exchange,
    false,
    `${first.message} (${report.breaches} departure${report.breaches === 1 ? '' : 's'} in the ${report.judged} answers of the run ${id} judged; the first)`,
  );
}

export function trafficChecks(suite: Suite): void {
  describe("the run's traffic as one session", () => {
    for (const id of SESSION_RULES) {
      it(rule(id, "the run's traffic, judged as one session of all its clients and players, as the proxy judges a client's"), (context) =>
        expectSessionHeld(suite, context, id),
      );
    }
  });

  describe("the run's clients", () => {
    it(
      rule(
        'RL-AUTH-IP',
        'no registration of a new address from a client address with room in its own 5 auth requests of the minute was refused 429: client addresses, neighbours included, share no auth bucket (in real time; with clock control the scope checks judge it)',
      ),
      (context) => {
        const { target } = suite;
        if (target.clock !== undefined) return context.skip("the target's clock was moved: this machine's minute is not the target's");
        if (target.identities.distinct === 1)
          return context.skip('one client address: no other of the run to share a bucket with (RL-AUTH-IP: pass --source-ips or --forwarded-for)');
        if (target.pacer.authRequestsSent === 0) return context.skip('the run sent no auth request');
        const shared = target.pacer.sharedAuthBucket;
        if (shared === undefined) return;
        expectBucketCount(suite, shared.exchange, {
          rule: 'RL-AUTH-IP',
          spent: false,
          why: `${shared.client} had sent ${shared.sent} of its 5 auth requests of the minute: its auth bucket is its own; later auth 429s were not waited out`,
        });
      },
    );
  });

  describe('every response of the run', () => {
    it(rule('BODY-JSON', 'every response the run received has a JSON body'), (context) => {
      expectInvariant(suite, context, 'BODY-JSON', 'body-json', 'responses with a body', 'the run received no response');
    });

    it(rule('RL-429', 'every 429 the run received, in any check, carries an integer Retry-After'), (context) => {
      expectInvariant(suite, context, 'RL-429', '429-retry-after', '429s', NO_429);
    });

    it(rule('ENV-ERROR', 'every error response the run received (4xx and 5xx, 429s included), in any check, is {error: string}'), (context) => {
      expectInvariant(suite, context, 'ENV-ERROR', 'error-envelope', 'error responses', 'the run received no error response');
    });

    it(rule('RL-LIMIT', 'every X-RateLimit-Limit the run received is an integer'), (context) => {
      expectInvariant(suite, context, 'RL-LIMIT', 'limit-integer', 'responses with X-RateLimit-Limit', 'no response of the run carried X-RateLimit-Limit');
    });

    it(rule('RL-REMAINING', 'every X-RateLimit-Remaining the run received is an integer'), (context) => {
      expectInvariant(
        suite,
        context,
        'RL-REMAINING',
        'remaining-integer',
        'responses with X-RateLimit-Remaining',
        'no response of the run carried X-RateLimit-Remaining',
      );
    });

    it(rule('RL-RESET', 'every X-RateLimit-Reset the run received is an integer'), (context) => {
      expectInvariant(suite, context, 'RL-RESET', 'reset-integer', 'responses with X-RateLimit-Reset', 'no response of the run carried X-RateLimit-Reset');
    });

    for (const [id, presentId, name] of [
      ['RL-LIMIT', 'limit-present', 'X-RateLimit-Limit'],
      ['RL-REMAINING', 'remaining-present', 'X-RateLimit-Remaining'],
      ['RL-RESET', 'reset-present', 'X-RateLimit-Reset'],
    ] as const) {
      it(
        rule(id, `every response of the run to an external caller on a route of the table carries ${name}, 429s and refusals included (401s aside)`),
        (context) => {
          expectInvariant(suite, context, id, presentId, 'such responses', 'the run sent no request of the table without the game origin');
        },
      );
    }

    it(rule('AP-HEADERS', 'every successful gameplay response of the run carries X-ActionPoints-Remaining (integer) and success: true'), (context) => {
      expectInvariant(
        suite,
        context,
        'AP-HEADERS',
        'gameplay-success',
        'successful gameplay responses',
        'AP-HEADERS on a successful gameplay response: untested (no gameplay request of the run succeeded; pass --ship-payload with a payload the target takes)',
      );
    });

    it(
      rule('AP-HEADERS', 'every X-ActionPoints-Remaining the run received is an integer, with an integer X-ActionPoints-NextRefill when it is 0'),
      (context) => {
        expectInvariant(
          suite,
          context,
          'AP-HEADERS',
          'action-points-integers',
          'gameplay responses with X-ActionPoints-Remaining',
          'no gameplay response of the run carried X-ActionPoints-Remaining',
        );
      },
    );
  });
}
