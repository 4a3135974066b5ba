import fc from 'fast-check';
import { describe, it } from 'vitest';
import { observe, requireThat } from './assertions.js';
import { errorMessage } from '../rules/envelope.js';
import { expectSuccessEnvelope } from './expect-envelope.js';
import { authIsScarce } from '../fixtures/accounts.js';
import { isObject, parsedJson } from '../common/exchange.js';
import { readRegisterMessage } from '../rules/register-message.js';
import { sentEmail } from '../rules/parameters.js';
import { firstVerification } from '../fixtures/first-verification.js';
import { malformedEmail, propertyOptions } from '../fixtures/generators.js';
import { DISPOSABLE_DOMAINS } from '../rules/register.js';
import { uniqueEmail } from '../fixtures/players.js';
import { type Knowledge, rule } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';
import { expectRule, parametersAlone, sentByCheck } from './expect-rule.js';
import { authBodies } from './paced-bodies.js';
import { escapedJson } from '../target/framing.js';

const REGISTER = '/api/auth/register';
/** A disposable domain as a person may type it: domain names know no letter case (RFC 4343). */
const MIXED_CASE_DISPOSABLE = 'Mailinator.COM';
/** A JSON body as .NET, OkHttp and Spring label it, and as a hand-written client may. */
const JSON_FRAMINGS = ['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8'] as const;

/**
 * Whether a code went to `email`, where the OTP source tells at once (the control API's outbox); nothing where it
 * cannot, since waiting on a log, a command or a person for a code that must not come would only time out.
 */
async function codeDelivered(suite: Suite, email: string): Promise<Pick<Knowledge, 'codeDelivered'>> {
  const { otp } = suite;
  if (otp?.deliveredAny === undefined) return {};
  return { codeDelivered: await otp.deliveredAny(email) };
}

export function registerChecks(suite: Suite): void {
  describe('register', () => {
    it(
      rule('REG-OK', 'a new, valid address answers 200 {success: true, message: string}, the message saying a code was sent to the email'),
      async (context) => {
        // Where auth requests are scarce, the registration VERIFY-OK goes on to verify: a new, valid address all the same.
        const exchange = authIsScarce(suite)
          ? (await firstVerification(suite)).registration.register
          : await suite.target.send({
              method: 'POST',
              path: REGISTER,
              json: { email: uniqueEmail(suite, 'register') },
              identity: suite.target.identities.fresh(),
            });
        expectRule('REG-OK', exchange, { ...sentByCheck(REGISTER, exchange), shaped: true }, 'an accepted registration of a whole request');
        expectSuccessEnvelope(exchange);
        const message = isObject(exchange.body) ? exchange.body['message'] : undefined;
        if (readRegisterMessage(message, sentEmail(parsedJson(exchange.requestBody))) === 'own-words')
          await observe(context, `the register message says it in words of its own: ${JSON.stringify(message)}`);
      },
    );

    it(
      rule('REG-OK', 'the register answer does not carry the code it delivered, in its body or a header: the code goes to the email only'),
      async (context) => {
        requireThat(context, suite.otp !== null, 'no OTP source: the code delivered cannot be read to be looked for (pass --otp-source)');
        // The registration VERIFY-OK goes on to verify: its code is read already, at no auth request of this check's own.
        const { register, code, email } = (await firstVerification(suite)).registration;
        expectRule('REG-OK', register, { ...sentByCheck(REGISTER, register), deliveredCode: code }, `a judgement of the registration of ${email}`);
      },
    );

    it(
      rule('REG-OK', 'where a registration without challengeToken is accepted (no bot-check configured), one that sends a challengeToken is accepted too'),
      async (context) => {
        requireThat(
          context,
          suite.config.challengeToken === null,
          'the run sends --challenge-token: the bot-check is configured, where the token is not optional',
        );
        requireThat(context, !authIsScarce(suite), 'one client address paces the run: no auth request is spent on a second registration');
        const identity = suite.target.identities.fresh();
        const register = (json: Record<string, string>) => suite.target.send({ method: 'POST', path: REGISTER, json, identity });
        const without = await register({ email: uniqueEmail(suite, 'no-challenge') });
        requireThat(context, without.status === 200, `a registration without challengeToken answered ${without.status}: the bot-check may be configured`);
        const exchange = await register({ email: uniqueEmail(suite, 'challenge'), challengeToken: 'conformance-challenge-token' });
        // challengeToken is optional where the bot-check is not configured, and sending it is no reason to refuse.
        expectRule('REG-OK', exchange, { ...sentByCheck(REGISTER, exchange), shaped: true }, 'a registration with a challengeToken');
        expectSuccessEnvelope(exchange);
      },
    );

    it(
      rule(
        'REG-OK',
        `a registration framed as real clients frame it is accepted as the plain one: Content-Type ${JSON_FRAMINGS.join(', ')} (RFC 9110: each is JSON), and JSON with escapes (\\u0040 for @)`,
      ),
      async (context) => {
        requireThat(context, !authIsScarce(suite), "one client address paces the run: the run's own registrations meet these framings as they come");
        const identity = () => suite.target.identities.fresh();
        const framed = JSON_FRAMINGS.map((contentType) => ({
          call: { json: { email: uniqueEmail(suite, 'framed') }, headers: { 'content-type': contentType } },
          as: contentType,
        }));
        const challenge = suite.config.challengeToken === null ? {} : { challengeToken: suite.config.challengeToken };
        const escaped = {
          rawBody: escapedJson(JSON.stringify({ email: uniqueEmail(suite, 'escaped'), ...challenge })),
          headers: { 'content-type': 'application/json' },
        };
        for (const { call, as } of [...framed, { call: escaped, as: 'JSON with escapes' }]) {
          const exchange = await suite.target.send({ method: 'POST', path: REGISTER, identity: identity(), ...call });
          expectRule('REG-OK', exchange, { ...sentByCheck(REGISTER, exchange), shaped: true }, `a registration sent as ${as}`);
        }
      },
    );

    it(rule('REG-MISSING', 'a body without email, or with email null, a number, an array or an empty string, answers 400'), async (context) => {
      const identity = suite.target.identities.fresh();
      const [none, nullEmail, number, array, empty] = [{}, { email: null }, { email: 12345 }, { email: [uniqueEmail(suite, 'array')] }, { email: '' }];
      for (const json of await authBodies(suite, context, [none, nullEmail, number, array, empty], [none, number, empty])) {
        const exchange = await suite.target.send({ method: 'POST', path: REGISTER, json, identity });
        expectRule('REG-MISSING', exchange, parametersAlone(REGISTER, exchange), 'a judgement of the missing or invalid email');
      }
    });

    it(
      rule('REG-MISSING', 'JSON bodies that are no object (null, [], 1) and an email that is an object answer 400, and a body that is no JSON ("{") a 4xx,'),
      async (context) => {
        const identity = suite.target.identities.fresh();
        const [nullBody, arrayBody, numberBody, objectEmail] = [null, [], 1, { email: {} }] as unknown[];
        for (const json of await authBodies(suite, context, [nullBody, arrayBody, numberBody, objectEmail], [nullBody, arrayBody, objectEmail])) {
          const exchange = await suite.target.send({ method: 'POST', path: REGISTER, json, identity });
          expectRule('REG-MISSING', exchange, parametersAlone(REGISTER, exchange), `a judgement of the body ${JSON.stringify(json)}`);
        }
        const unreadable = await suite.target.send({ method: 'POST', path: REGISTER, rawBody: '{', headers: { 'content-type': 'application/json' }, identity });
        expectRule('REG-MISSING', unreadable, parametersAlone(REGISTER, unreadable), 'a judgement of the body "{", which is no JSON');
      },
    );

    it(
      rule(
        'REG-INVALID',
        'property (a few runs: each costs an auth request): malformed addresses answer 400, and no code is delivered for them where the outbox shows it',
      ),
      async () => {
        const identity = suite.target.identities.fresh();
        await fc.assert(
          fc.asyncProperty(malformedEmail, async (email) => {
            const exchange = await suite.target.send({ method: 'POST', path: REGISTER, json: { email }, identity });
            const knowledge = { ...parametersAlone(REGISTER, exchange), ...(await codeDelivered(suite, email)) };
            expectRule('REG-INVALID', exchange, knowledge, `a judgement of the malformed address ${JSON.stringify(email)}`);
          }),
          propertyOptions(suite.config, { costly: true }),
        );
      },
    );

    it(
      rule(
        'REG-DISPOSABLE',
        `addresses at ${[...DISPOSABLE_DOMAINS, MIXED_CASE_DISPOSABLE].join(', ')} (the first only, where one address's auth budget paces the run) are rejected: any 4xx (status and message not shown), and no code delivered for them where the outbox shows it; a domain is one domain in any letter case`,
      ),
      async (context) => {
        const identity = suite.target.identities.fresh();
        const local = uniqueEmail(suite, 'disposable').split('@')[0]!;
        const seen: string[] = [];
        for (const domain of authIsScarce(suite) ? DISPOSABLE_DOMAINS.slice(0, 1) : [...DISPOSABLE_DOMAINS, MIXED_CASE_DISPOSABLE]) {
          const email = `${local}@${domain}`;
          const exchange = await suite.target.send({ method: 'POST', path: REGISTER, json: { email }, identity });
          const delivered = await codeDelivered(suite, email);
          expectRule('REG-DISPOSABLE', exchange, { ...sentByCheck(REGISTER, exchange), ...delivered, shaped: true }, `the disposable-domain address ${email}`);
          seen.push(`${domain} → ${exchange.status} ${JSON.stringify(errorMessage(exchange))}`);
        }
        await observe(context, `disposable domains answered: ${seen.join('; ')}`);
      },
    );
  });
}
