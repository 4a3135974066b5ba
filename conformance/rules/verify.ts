import { OTP_LENGTH, OTP_LIFETIME_MS } from '../../src/spec/limits.js';
import { specRoute } from '../../src/spec/routes.js';
import { isObject, parsedJson } from '../common/exchange.js';
import { isClientError, isSuccess } from './envelope.js';
import type { Exchange } from '../common/exchange.js';
import { ISO_UTC, SIX_DIGITS, UUID } from './formats.js';
import { acceptedWhole, refusedParameters, sentAddress, sentEmail } from './parameters.js';
import { dueOk, judged, type Judgement, type Knowledge, type Rule, routeKey, SERVER_CLOCK_SLACK_MS } from './rule.js';

export const VERIFY_ROUTE: ReadonlySet<string> = new Set(['POST /api/auth/verify-email']);
/** Where the code a registration sends is delivered from. */
const REGISTER_KEY = `POST ${specRoute('register').path}`;
const isVerify = (exchange: Exchange, knowledge: Knowledge) => VERIFY_ROUTE.has(routeKey(exchange, knowledge));

/** The address a verification sent, as the server keys it, for a finding's words. */
const addressOf = (exchange: Exchange) => sentAddress(parsedJson(exchange.requestBody)) ?? '';

/** A verification accepted whole, with an object body: what it answered is judged. */
export function acceptedVerification(exchange: Exchange, knowledge: Knowledge): Record<string, unknown> | undefined {
  return isVerify(exchange, knowledge) && acceptedWhole(exchange, knowledge) && isObject(exchange.body) ? exchange.body : undefined;
}

const handsOutToken = (exchange: Exchange) => isObject(exchange.body) && 'authToken' in exchange.body;

/**
 * A code the server must not take (`what` says why): a shaped request (a check's) is refused with a 4xx (status not
 * shown) and no authToken; live traffic departs where the code was taken (a success, or a token handed out).
 */
function codeRefused(exchange: Exchange, knowledge: Knowledge, what: string): Judgement[] {
  if (knowledge.shaped === true) {
    return [judged('refused', isClientError(exchange), `a 4xx status (${what})`), judged('no-token', !handsOutToken(exchange), `no authToken (${what})`)];
  }
  const taken = isSuccess(exchange) || handsOutToken(exchange);
  return [
    judged(
      'not-taken',
      !taken,
      `a refusal (${what})`,
      `took ${what} for ${addressOf(exchange)}: answered ${exchange.status}${handsOutToken(exchange) ? ' with an authToken' : ''}`,
    ),
  ];
}

/** expiresAt as an instant, when it is an ISO 8601 UTC timestamp. */
export function expiresAtOf(body: Record<string, unknown>): number | undefined {
  const { expiresAt } = body;
  const ms = typeof expiresAt === 'string' && ISO_UTC.test(expiresAt) ? Date.parse(expiresAt) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

/** POST /api/auth/verify-email and its codes: what an accepted verification answers, and what must be refused. */
export const VERIFY_RULES = [
  {
    id: 'VERIFY-OK',
    side: 'server',
    quote: 'Verify-email response: success: true, authToken: Bearer token, UUID format, expiresAt: ISO 8601 UTC timestamp at which the token expires.',
    sentences: [
      'RES-VERIFIED-SUCCESS',
      'RES-VERIFIED-TOKEN',
      'RES-VERIFIED-EXPIRES',
      'RES-SUCCESS-FIELDS',
      'EP-VERIFY',
      'STATE-VERIFY',
      'STATE-TOKEN-ISSUED',
      'AUTH-STEP-VERIFY',
      'SVC-OTP',
      'VER-PREFIX',
      'ERR-STATUS-200',
    ],
    proxy: 'an accepted verification answers a UUID authToken and an ISO 8601 UTC expiresAt',
    routes: VERIFY_ROUTE,
    judge(exchange, knowledge) {
      // A check's verification with the code delivered is due its 200, whatever its body.
      const due = knowledge.shaped === true && isVerify(exchange, knowledge) ? [dueOk(exchange, 'the code delivered for the address')] : [];
      const body = acceptedVerification(exchange, knowledge);
      if (body === undefined) return due;
      const { authToken, expiresAt } = body;
      return [
        ...due,
        judged('uuid-token', typeof authToken === 'string' && UUID.test(authToken), 'authToken in UUID format', 'authToken is not in UUID format'),
        judged(
          'iso-expires',
          expiresAtOf(body) !== undefined,
          'expiresAt as an ISO 8601 UTC timestamp (Z or +00:00)',
          `expiresAt ${JSON.stringify(expiresAt)} is not an ISO 8601 UTC timestamp`,
        ),
      ];
    },
  },
  {
    id: 'VERIFY-MISSING',
    side: 'server',
    quote: '400 Bad request: missing or invalid parameters',
    sentences: ['RES-VERIFY-EMAIL', 'RES-VERIFY-OTP', 'ERR-STATUS-400'],
    proxy: 'a verify-email request missing email or otp is refused, and an invalid one never answered with a server error',
    routes: VERIFY_ROUTE,
    judge: (exchange, knowledge) => (isVerify(exchange, knowledge) ? refusedParameters(exchange, knowledge) : []),
  },
  {
    id: 'VERIFY-WRONG',
    side: 'server',
    quote: 'Correct otp, within 15 minutes of issue → Verified with active token (a wrong code is not).',
    sentences: ['STATE-VERIFY', 'RES-VERIFY-OTP'],
    // Only a sender that knows the pending code (a check, from the OTP source) knows another is wrong.
    session: ['wrongCode'],
    routes: VERIFY_ROUTE,
    judge: (exchange, knowledge) => (knowledge.wrongCode === true && isVerify(exchange, knowledge) ? codeRefused(exchange, knowledge, 'a wrong code') : []),
  },
  {
    id: 'VERIFY-BOUND',
    side: 'server',
    quote: 'Verify-email request: email: The address that was registered. otp: The 6-digit code sent to that address.',
    sentences: ['RES-VERIFY-EMAIL', 'RES-VERIFY-OTP', 'STATE-VERIFY'],
    // The code is bound to the address, not to how it is written: "the address that was registered" is one address
    // whatever the letter case of its domain (RFC 5321 §2.4: domains know no case), so its code verifies it written
    // either way. VERIFY-OK says what an accepted verification answers; this rule, which address a code verifies.
    session: ['codeOfAnotherAddress', 'registeredAs'],
    routes: VERIFY_ROUTE,
    judge(exchange, knowledge) {
      if (!isVerify(exchange, knowledge)) return [];
      if (knowledge.codeOfAnotherAddress === true) return codeRefused(exchange, knowledge, "another address's code");
      const { registeredAs } = knowledge;
      // Only a sender that shaped the request (its code pending, its limits not spent) knows the acceptance is due.
      if (registeredAs === undefined || knowledge.shaped !== true) return [];
      const sent = sentEmail(parsedJson(exchange.requestBody)) ?? '';
      return [
        judged(
          'same-address',
          isSuccess(exchange) && handsOutToken(exchange),
          `a 2xx with an authToken: ${sent} is ${registeredAs}, the address registered (domains know no letter case)`,
          `answered ${exchange.status}${handsOutToken(exchange) ? '' : ' without an authToken'} to the code sent to ${registeredAs}, sent for ${sent}: the same address, its domain in another letter case`,
        ),
      ];
    },
  },
  {
    id: 'OTP-LENGTH',
    side: 'server',
    quote: 'Access is by email verification with a 6-digit one-time code (OTP). Other limits: OTP length 6 digits.',
    sentences: ['SVC-OTP', 'LIM-OTP-LENGTH', 'STATE-CODE-SENT', 'AUTH-STEP-CODE', 'RES-VERIFY-OTP'],
    proxy: 'no verification accepted for a code that is not 6 digits',
    routes: new Set([...VERIFY_ROUTE, REGISTER_KEY]),
    judge(exchange, knowledge) {
      // A registration whose code the sender read from the email (its OTP source): that code is 6 digits.
      const delivered = knowledge.deliveredCode;
      if (delivered !== undefined && routeKey(exchange, knowledge) === REGISTER_KEY)
        return [
          judged(
            'delivered-six-digits',
            SIX_DIGITS.test(delivered),
            `a ${OTP_LENGTH}-digit code delivered for the address`,
            `the code delivered for ${sentEmail(parsedJson(exchange.requestBody)) ?? 'the address'} was ${delivered} (${delivered.length} characters)`,
          ),
        ];
      if (acceptedVerification(exchange, knowledge) === undefined) return [];
      const request = parsedJson(exchange.requestBody);
      const otp = isObject(request) ? request['otp'] : undefined;
      if (typeof otp !== 'string') return [];
      return [
        judged(
          'six-digits',
          SIX_DIGITS.test(otp),
          'a 4xx for a code that is not 6 digits',
          `accepted a code of ${otp.length} characters${/^\d*$/.test(otp) ? ' (digits)' : ''}, where codes are 6 digits`,
        ),
      ];
    },
  },
  // Judged over a session: what the sender remembers of codes comes as knowledge (rules/session/auth-memory.ts derives it for the proxy and a check run's traffic).
  {
    id: 'VERIFY-REUSED',
    side: 'server',
    quote: 'Code pending → (correct otp) → Verified with active token: the code is then no longer pending.',
    sentences: ['STATE-VERIFY'],
    proxy: 'no code accepted twice without a registration between',
    session: ['codeUsedBefore'],
    routes: VERIFY_ROUTE,
    judge: (exchange, knowledge) =>
      knowledge.codeUsedBefore === true && isVerify(exchange, knowledge)
        ? codeRefused(exchange, knowledge, 'a code already used, with no registration since')
        : [],
  },
  {
    id: 'OTP-EXPIRY',
    side: 'server',
    quote: 'The code is valid for 15 minutes.',
    sentences: ['AUTH-CODE-LIFETIME', 'LIM-OTP-LIFETIME', 'STATE-VERIFY', 'STATE-CODE-EXPIRED'],
    proxy: 'no code accepted 15 minutes after its registration',
    session: ['registeredAt'],
    routes: VERIFY_ROUTE,
    judge(exchange, knowledge) {
      const { registeredAt, serverTime } = knowledge;
      if (registeredAt === undefined || !isVerify(exchange, knowledge)) return [];
      // A check's code sent for certain within its 15 minutes (the registration at its earliest) is due its acceptance;
      // one sent for certain after them (the registration at its latest), its refusal.
      if (knowledge.shaped === true && serverTime.toMs < registeredAt + OTP_LIFETIME_MS) return [dueOk(exchange, 'a code used within its 15 minutes')];
      if (knowledge.shaped === true && serverTime.fromMs >= registeredAt + OTP_LIFETIME_MS)
        return codeRefused(exchange, knowledge, 'a code used once its 15 minutes had passed');
      if (!isSuccess(exchange) || serverTime.fromMs <= registeredAt + OTP_LIFETIME_MS + SERVER_CLOCK_SLACK_MS) return [];
      const minutes = ((serverTime.fromMs - registeredAt) / 60_000).toFixed(1);
      return [
        judged(
          'expired',
          false,
          'a code refused 15 minutes after its registration',
          `accepted a code for ${addressOf(exchange)} ${minutes} minutes after its last registration: codes are valid for 15`,
        ),
      ];
    },
  },
] as const satisfies readonly Rule[];
