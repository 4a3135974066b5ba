import { describe, it, type TestContext } from 'vitest';
import { OTP_LIFETIME_MS, TOKEN_LIFETIME_MS } from '../../src/spec/limits.js';
import { observe, requireThat } from './assertions.js';
import { withFrozenClock, advanceTo } from '../target/clock-scope.js';
import { errorMessage } from '../rules/envelope.js';
import { expectSuccessEnvelope } from './expect-envelope.js';
import { header, type Exchange } from '../common/exchange.js';
import { firstVerification } from '../fixtures/first-verification.js';
import type { Identity } from '../target/identities.js';
import { notice, sleep } from '../target/pacing.js';
import { registerForCode, uniqueEmail, verifyForToken, type Registration } from '../fixtures/players.js';
import { rule } from '../rules/index.js';
import { authIsScarce } from '../fixtures/accounts.js';
import { boundPair } from '../fixtures/bound-pair.js';
import type { Suite } from '../fixtures/suite.js';
import { acceptedVerification, expiresAtOf } from '../rules/verify.js';
import { expectRule, parametersAlone, sentByCheck } from './expect-rule.js';
import { answeredAt } from '../rules/model/server-time.js';
import { authBodies } from './paced-bodies.js';
import { COMMON_CODES, wrongCodes } from '../fixtures/wrong-codes.js';

const VERIFY = '/api/auth/verify-email';
/** One more than the wrong-attempt limit seen in the wild (5), so that such a limit shows. */
const WRONG_ATTEMPTS = 6;
/** Where one client address paces the run: a limit is then not looked for, three codes judge the rule. */
const WRONG_ATTEMPTS_PACED = 3;
const NO_OTP = 'no OTP source: the target has no control API outbox; pass --otp-source (log:FILE, command:CMD or prompt)';

function verify(suite: Suite, email: string, otp: string, identity: Identity, acceptLimit = false): Promise<Exchange> {
  return suite.target.send({ method: 'POST', path: VERIFY, json: { email, otp }, identity, ...(acceptLimit ? { acceptLimit } : {}) });
}

function requireOtp(suite: Suite, context: TestContext): void {
  if (suite.otp === null) context.skip(NO_OTP);
}

/** `email` with its domain in the other letter case (upper where it has a lower-case letter), or as it is where the domain has no letter. */
function domainCaseTurned(email: string): string {
  const at = email.lastIndexOf('@');
  const domain = email.slice(at + 1);
  return `${email.slice(0, at + 1)}${domain === domain.toUpperCase() ? domain.toLowerCase() : domain.toUpperCase()}`;
}

/**
 * Two codes issued at the same frozen moment: the first is tried 1 s before the end of its lifetime, the second
 * exactly at it. The scheduler may move the clock before an auth request (to make room in the auth budget),
 * which would spoil the boundary: such an attempt is discarded and made again with new registrations.
 */
async function otpExpiryWithClock(suite: Suite, context: TestContext): Promise<void> {
  const { target } = suite;
  const clock = target.clock!;
  await withFrozenClock(target, clock, async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const identity = target.identities.fresh();
      const early = await registerForCode(suite, uniqueEmail(suite, 'otp-early'), identity);
      const earlyIssued = await clock.now();
      const late = await registerForCode(suite, uniqueEmail(suite, 'otp-late'), identity);
      const lateIssued = await clock.now();
      const justBefore = earlyIssued + OTP_LIFETIME_MS - 1_000;
      if (!(await advanceTo(clock, justBefore))) continue;
      const accepted = await verify(suite, early.email, early.code, identity);
      if ((await clock.now()) !== justBefore) continue;
      const atExpiry = lateIssued + OTP_LIFETIME_MS;
      if (!(await advanceTo(clock, atExpiry))) continue;
      const rejected = await verify(suite, late.email, late.code, identity);
      if ((await clock.now()) !== atExpiry) continue;
      const usedAt = { fromMs: justBefore, toMs: justBefore };
      expectRule(
        'OTP-EXPIRY',
        accepted,
        { ...sentByCheck(VERIFY, accepted, usedAt), registeredAt: earlyIssued, shaped: true },
        'a code used 15 min − 1 s after it was issued',
      );
      expectSuccessEnvelope(accepted);
      expectRule(
        'OTP-EXPIRY',
        rejected,
        { ...sentByCheck(VERIFY, rejected, { fromMs: atExpiry, toMs: atExpiry }), registeredAt: lateIssued, shaped: true },
        'a code used 15 min after it was issued',
      );
      await observe(context, `an expired code answered ${rejected.status} ${JSON.stringify(errorMessage(rejected))}`);
      return;
    }
    throw new Error(
      'OTP-EXPIRY: the clock moved during each of 3 attempts (the scheduler kept making room in the auth budget), so no boundary could be checked',
    );
  });
}

/** The same in real time: margins of 10 s on either side of the 15 minutes. */
async function otpExpiryInRealTime(suite: Suite, context: TestContext): Promise<void> {
  const marginMs = 10_000;
  const identity = suite.target.identities.fresh();
  const earlySent = Date.now();
  const early = await registerForCode(suite, uniqueEmail(suite, 'otp-early'), identity);
  const late = await registerForCode(suite, uniqueEmail(suite, 'otp-late'), identity);
  notice(
    `OTP-EXPIRY: --wait-otp-expiry: waiting a real 15 minutes for two codes to reach the end of their lifetime (until ${new Date(late.register.receivedAt + OTP_LIFETIME_MS + marginMs).toISOString().slice(11, 19)})`,
  );
  await sleepUntil(earlySent + OTP_LIFETIME_MS - marginMs, context.signal);
  const accepted = await verify(suite, early.email, early.code, identity);
  await sleepUntil(late.register.receivedAt + OTP_LIFETIME_MS + marginMs, context.signal);
  const rejected = await verify(suite, late.email, late.code, identity);
  // Registered, on the target's clock, no sooner than the earliest its answer's Date header allows.
  const registeredAt = answeredAt(early.register).fromMs;
  expectRule('OTP-EXPIRY', accepted, { ...sentByCheck(VERIFY, accepted), registeredAt, shaped: true }, 'a code used 10 s before its 15 minutes had passed');
  expectSuccessEnvelope(accepted);
  // Registered, on the target's clock, no later than the latest its answer's Date header allows.
  const lateRegisteredAt = answeredAt(late.register).toMs;
  expectRule(
    'OTP-EXPIRY',
    rejected,
    { ...sentByCheck(VERIFY, rejected), registeredAt: lateRegisteredAt, shaped: true },
    'a code used 10 s after its 15 minutes had passed',
  );
  await observe(context, `an expired code answered ${rejected.status} ${JSON.stringify(errorMessage(rejected))}`);
}

/**
 * Whether re-registering an address that holds a valid token revokes that token: the spec shows re-registration
 * only once a token has expired, so either answer is an observation, never a failure.
 */
async function observeReRegistration(suite: Suite, context: TestContext, registration: Registration, identity: Identity): Promise<void> {
  const { player } = await verifyForToken(suite, registration.email, registration.code, identity);
  const again = await suite.target.send({ method: 'POST', path: '/api/auth/register', json: { email: registration.email }, identity });
  const read = await suite.target.send({ method: 'GET', path: '/api/player', token: player.token, identity });
  const outcome =
    read.status === 200
      ? 'the earlier token still works'
      : read.status === 401
        ? 'the earlier token answers 401 (revoked)'
        : `a read with the earlier token answered ${read.status}`;
  await observe(context, `re-registering a signed-in address answered ${again.status}; then ${outcome}`);
}

const sleepUntil = (at: number, signal: AbortSignal) => sleep(Math.max(0, at - Date.now()), signal);

export function verifyChecks(suite: Suite): void {
  describe('verify-email', () => {
    it(rule('VERIFY-MISSING', 'a body without otp, without email, or empty, answers 400'), async (context) => {
      const identity = suite.target.identities.fresh();
      const [noOtp, noEmail, empty] = [{ email: uniqueEmail(suite, 'verify-missing') }, { otp: '123456' }, {}];
      for (const json of await authBodies(suite, context, [noOtp, noEmail, empty], [noOtp, noEmail])) {
        const exchange = await suite.target.send({ method: 'POST', path: VERIFY, json, identity });
        expectRule('VERIFY-MISSING', exchange, parametersAlone(VERIFY, exchange), 'a judgement of the missing parameter');
      }
    });

    it(
      rule(
        'VERIFY-MISSING',
        'JSON bodies that are no object (null, [], 1), a non-string email ({}, 12345) and a numeric otp answer 400, and a body that is no JSON ("{") a 4xx, (a numeric otp may be read as its digits: then a 4xx, as for a code of no registration)',
      ),
      async (context) => {
        const identity = suite.target.identities.fresh();
        const email = uniqueEmail(suite, 'verify-invalid');
        const [nullBody, arrayBody, numberBody, numberEmail, objectEmail] = [
          null,
          [],
          1,
          { email: 12345, otp: '123456' },
          { email: {}, otp: '123456' },
        ] as unknown[];
        for (const json of await authBodies(suite, context, [nullBody, arrayBody, numberBody, numberEmail, objectEmail], [nullBody, arrayBody, numberEmail])) {
          const exchange = await suite.target.send({ method: 'POST', path: VERIFY, json, identity });
          expectRule('VERIFY-MISSING', exchange, parametersAlone(VERIFY, exchange), `a judgement of the body ${JSON.stringify(json)}`);
        }
        const unreadable = await suite.target.send({ method: 'POST', path: VERIFY, rawBody: '{', headers: { 'content-type': 'application/json' }, identity });
        expectRule('VERIFY-MISSING', unreadable, parametersAlone(VERIFY, unreadable), 'a judgement of the body "{", which is no JSON');
        // The address has no pending code: a server that reads 123456 as "123456" refuses it as a wrong code, whose status is not shown.
        const numeric = await suite.target.send({ method: 'POST', path: VERIFY, json: { email, otp: 123456 }, identity });
        expectRule('VERIFY-MISSING', numeric, { ...parametersAlone(VERIFY, numeric), wrongCode: true }, 'a judgement of a numeric otp');
      },
    );

    it(
      rule(
        'VERIFY-WRONG',
        `${WRONG_ATTEMPTS} 6-digit codes never delivered (${WRONG_ATTEMPTS_PACED} where one client address paces the run: ${COMMON_CODES[0]} among them either way), the common fixed ones (${COMMON_CODES.join(', ')}) first, then the pending code + 1, for one pending registration each answer a 4xx and no token (status not shown; a wrong-attempt limit, where the target has one, is observed)`,
      ),
      async (context) => {
        // Where auth requests are scarce, VERIFY-BOUND's second address is the registration: its crossed code is the first wrong one.
        const pair = authIsScarce(suite) ? await boundPair(suite) : undefined;
        // (Unless both codes drew the same digits: the crossed code is then no wrong one.)
        const answers: Exchange[] = pair === undefined || pair.first.code === pair.second.code ? [] : [pair.crossed];
        let email: string;
        let delivered: string[];
        if (pair !== undefined) {
          ({ email } = pair.second);
          delivered = [pair.second.code, pair.first.code];
        } else if (suite.otp !== null) {
          email = uniqueEmail(suite, 'verify-wrong');
          delivered = [(await registerForCode(suite, email, suite.target.identities.fresh())).code];
        } else {
          // Without a source of codes, fixed guesses only: each wrong but for a one-in-a-million chance.
          email = uniqueEmail(suite, 'verify-wrong');
          const registered = await suite.target.send({
            method: 'POST',
            path: '/api/auth/register',
            json: { email },
            identity: suite.target.identities.fresh(),
          });
          expectRule('REG-OK', registered, { ...sentByCheck('/api/auth/register', registered), shaped: true }, 'the registration to verify against');
          delivered = [];
        }
        // Each from a client of its own where the run has several: a wrong-attempt limit is the code's, not the address's.
        const attempts = authIsScarce(suite) ? WRONG_ATTEMPTS_PACED : WRONG_ATTEMPTS;
        for (const code of wrongCodes(attempts - answers.length, delivered))
          answers.push(await verify(suite, email, code, suite.target.identities.fresh(), true));
        for (const [index, exchange] of answers.entries()) {
          // The crossed code of the pair is a wrong code for its address too: VERIFY-WRONG judges it as one.
          expectRule('VERIFY-WRONG', exchange, { ...sentByCheck(VERIFY, exchange), wrongCode: true, shaped: true }, `wrong code number ${index + 1} judged`);
        }
        await observe(context, `a wrong code answered ${answers[0]!.status} ${JSON.stringify(errorMessage(answers[0]!))}`);
        const statuses = answers.map(
          (exchange) => `${exchange.status}${exchange.status === 429 ? ` (Retry-After ${header(exchange, 'retry-after') ?? 'none'})` : ''}`,
        );
        const limitedFrom = answers.findIndex((exchange) => exchange.status === 429);
        await observe(
          context,
          limitedFrom === -1
            ? `no wrong-attempt limit within ${attempts} wrong codes (answers: ${statuses.join(', ')})`
            : `a wrong-attempt limit: wrong code number ${limitedFrom + 1} answered 429 (answers: ${statuses.join(', ')})`,
        );
      },
    );

    it(rule('VERIFY-BOUND', 'a code sent to one address does not verify another registered address: a 4xx and no token'), async (context) => {
      requireOtp(suite, context);
      const pair = await boundPair(suite);
      if (pair.first.code === pair.second.code)
        return context.skip('both addresses were sent the same code (a one-in-a-million draw), so the binding cannot be told; run again');
      const { crossed, first, second, identity } = pair;
      const knowledge = { ...sentByCheck(VERIFY, crossed), codeOfAnotherAddress: true, shaped: true };
      expectRule('VERIFY-BOUND', crossed, knowledge, `the code sent to ${first.email}, sent for ${second.email}, judged`);
      // The observation costs two more auth requests: left out where they are scarce.
      if (!authIsScarce(suite)) await observeReRegistration(suite, context, first, identity);
    });

    it(
      rule(
        'VERIFY-BOUND',
        'the code sent to an address verifies it written with its domain in another letter case (example.com, EXAMPLE.COM): a 2xx with a token, one address (RFC 5321)',
      ),
      async (context) => {
        requireOtp(suite, context);
        requireThat(context, !authIsScarce(suite), 'one client address paces the run: no auth request is spent on a sign-in of its own');
        const email = uniqueEmail(suite, 'domain-case');
        const written = domainCaseTurned(email);
        requireThat(context, written !== email, `the run's addresses (${email}) have a domain without letters, whose case cannot be turned`);
        const identity = suite.target.identities.fresh();
        const { code } = await registerForCode(suite, email, identity);
        const exchange = await verify(suite, written, code, identity);
        const knowledge = { ...sentByCheck(VERIFY, exchange), registeredAs: email, shaped: true };
        expectRule('VERIFY-BOUND', exchange, knowledge, `the code sent to ${email}, sent for ${written}, judged`);
      },
    );

    it(rule('OTP-LENGTH', 'the code delivered for a registration is exactly 6 digits'), async (context) => {
      requireOtp(suite, context);
      const { registration } = await firstVerification(suite);
      const { register, code } = registration;
      expectRule('OTP-LENGTH', register, { ...sentByCheck('/api/auth/register', register), deliveredCode: code }, 'the code delivered judged');
    });

    it(rule('VERIFY-OK', 'the emailed code answers 200 {success: true, authToken: <UUID>, expiresAt: <ISO 8601 UTC>}'), async (context) => {
      requireOtp(suite, context);
      const { exchange } = await firstVerification(suite);
      expectRule('VERIFY-OK', exchange, { ...sentByCheck(VERIFY, exchange), shaped: true }, 'an accepted verification with a JSON object body');
      expectSuccessEnvelope(exchange);
      await observe(context, `expiresAt is written like ${String((exchange.body as Record<string, unknown>)['expiresAt'])}`);
    });

    it(rule('TOKEN-LIFETIME', 'expiresAt is 7 days after the token was issued'), async (context) => {
      requireOtp(suite, context);
      const { exchange, issued } = await firstVerification(suite);
      const knowledge = { ...sentByCheck(VERIFY, exchange, { fromMs: issued.from, toMs: issued.to }), serverClockRead: issued.clockRead };
      const verified = acceptedVerification(exchange, knowledge);
      const expiresAt = verified === undefined ? undefined : expiresAtOf(verified);
      if (exchange.status !== 200 || expiresAt === undefined) return context.skip('the verification gave no expiresAt to compare (see VERIFY-OK)');
      expectRule('TOKEN-LIFETIME', exchange, knowledge, `an expiresAt to compare with the issue time read from ${issued.source}`);
      await observe(context, `expiresAt − (issue time + 7 days) = ${((expiresAt - issued.from - TOKEN_LIFETIME_MS) / 1000).toFixed(1)} s, by ${issued.source}`);
    });

    it(rule('VERIFY-REUSED', 'the code that was just used answers a 4xx (status not shown)'), async (context) => {
      requireOtp(suite, context);
      const { registration, identity, exchange: firstUse } = await firstVerification(suite);
      if (firstUse.status !== 200) return context.skip('the first use of the code failed (see VERIFY-OK), so its reuse proves nothing');
      const exchange = await verify(suite, registration.email, registration.code, identity);
      expectRule('VERIFY-REUSED', exchange, { ...sentByCheck(VERIFY, exchange), codeUsedBefore: true, shaped: true }, 'the used code judged');
      await observe(context, `a used code answered ${exchange.status} ${JSON.stringify(errorMessage(exchange))}`);
    });

    it(
      rule(
        'OTP-EXPIRY',
        'a code is accepted just before 15 minutes have passed since it was sent (15 min − 1 s with clock control) and rejected with a 4xx once they have',
      ),
      async (context) => {
        requireOtp(suite, context);
        if (suite.target.clock !== undefined) return otpExpiryWithClock(suite, context);
        if (!suite.config.waitOtpExpiry)
          return context.skip("the target's clock cannot be moved (no control API with clock control); pass --wait-otp-expiry to wait a real 15 minutes");
        return otpExpiryInRealTime(suite, context);
      },
    );
  });
}
