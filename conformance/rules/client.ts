import { isObject, parsedJson } from '../common/exchange.js';
import { SIX_DIGITS } from './formats.js';
import { authorizationOf, bearerToken, PROTECTED_ROUTES } from './bearer.js';
import { type Judge, type Judgement, judged, perExchange, type Rule, routeKeyOf } from './rule.js';

type RequestRule = 'CLIENT-BODY-JSON' | 'CLIENT-CONTENT-TYPE' | 'CLIENT-REGISTER-FIELDS' | 'CLIENT-VERIFY-FIELDS' | 'CLIENT-BEARER';

/** A departure of the client's own request, before anything the server answered. */
export interface RequestDeparture {
  rule: RequestRule;
  message: string;
}

/** The request fields the spec names for its two request bodies: required or not, and the type each must have. */
const REQUEST_FIELDS = {
  '/api/auth/register': { rule: 'CLIENT-REGISTER-FIELDS', required: ['email'], optional: ['challengeToken'] },
  '/api/auth/verify-email': { rule: 'CLIENT-VERIFY-FIELDS', required: ['email', 'otp'], optional: [] },
} as const satisfies Record<string, { rule: RequestRule; required: readonly string[]; optional: readonly string[] }>;

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;
/** A request the server answered within a second of its Retry-After's end is not early: the Date header's whole second. */
const RETRY_SLACK_MS = 1_000;

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

function fieldDepartures(path: keyof typeof REQUEST_FIELDS, body: unknown): RequestDeparture[] {
  const { rule, required, optional } = REQUEST_FIELDS[path];
  if (!isObject(body)) return [{ rule, message: `the body is ${describe(body)}, not an object with ${required.join(' and ')}` }];
  const departures: RequestDeparture[] = [];
  const named = new Set<string>([...required, ...optional]);
  for (const field of required) {
    if (!(field in body)) departures.push({ rule, message: `${field} is missing` });
  }
  for (const field of named) {
    if (field in body && typeof body[field] !== 'string') departures.push({ rule, message: `${field} is ${describe(body[field])}, not a string` });
  }
  const unnamed = Object.keys(body).filter((field) => !named.has(field));
  if (unnamed.length > 0) {
    departures.push({ rule, message: `sends ${unnamed.join(', ')}, which the spec does not name (it names ${[...named].join(', ')})` });
  }
  const otp = body['otp'];
  if (path === '/api/auth/verify-email' && typeof otp === 'string' && !SIX_DIGITS.test(otp)) {
    departures.push({ rule, message: `otp of ${otp.length} characters is not 6 digits` });
  }
  return departures;
}

/**
 * What is wrong with a request by the spec's sentences, judged from the request alone: its body and Content-Type
 * on any route of the API, its fields on the two requests whose fields the spec names (the ship payload is not
 * shown), and its Authorization on the protected routes of the table.
 */
export function requestDepartures(method: string, path: string, headers: Readonly<Record<string, string>>, body: string | undefined): RequestDeparture[] {
  const departures: RequestDeparture[] = [];
  const authorization = authorizationOf(headers);
  if (PROTECTED_ROUTES.has(routeKeyOf(method, path)) && bearerToken(headers) === undefined) {
    departures.push({
      rule: 'CLIENT-BEARER',
      message: authorization === undefined ? 'no Authorization header' : `Authorization "${authorization.split(' ')[0]} …" is not "Bearer <token>"`,
    });
  }
  const namesFields = method.toUpperCase() === 'POST' && Object.hasOwn(REQUEST_FIELDS, path);
  if (body === undefined || body.length === 0) {
    if (namesFields) departures.push(...fieldDepartures(path as keyof typeof REQUEST_FIELDS, undefined));
    return departures;
  }
  const contentType = headers['content-type'];
  if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType.trim())) {
    departures.push({ rule: 'CLIENT-CONTENT-TYPE', message: contentType === undefined ? 'a body without Content-Type' : `Content-Type ${contentType}` });
  }
  if (parsedJson(body) === undefined) {
    departures.push({ rule: 'CLIENT-BODY-JSON', message: 'the body is not JSON' });
    return departures;
  }
  if (namesFields) departures.push(...fieldDepartures(path as keyof typeof REQUEST_FIELDS, parsedJson(body)));
  return departures;
}

/** A request's departures, made once for all the client rules. */
const departuresOfRequest = perExchange((exchange, path) => requestDepartures(exchange.method, path, exchange.requestHeaders, exchange.requestBody));

/** The departures of one rule among a request's, as judgements. */
function departuresOf(rule: RequestRule): Judge {
  return (exchange, knowledge): Judgement[] =>
    departuresOfRequest(exchange, knowledge.path)
      .filter((departure) => departure.rule === rule)
      .map((departure) => judged(departure.rule, false, departure.message, departure.message));
}

/** What a client can get wrong, by the sentence it departs from: judged by the proxy on the requests it sees. */
export const CLIENT_RULES = [
  {
    id: 'CLIENT-BODY-JSON',
    side: 'client',
    sentences: ['EP-BODIES-JSON'],
    proxy: 'a request body that is JSON',
    judge: departuresOf('CLIENT-BODY-JSON'),
  },
  {
    id: 'CLIENT-CONTENT-TYPE',
    side: 'client',
    sentences: ['EP-REQUEST-CONTENT-TYPE'],
    proxy: 'Content-Type: application/json on a request with a body',
    judge: departuresOf('CLIENT-CONTENT-TYPE'),
  },
  {
    id: 'CLIENT-REGISTER-FIELDS',
    side: 'client',
    sentences: ['EP-REGISTER', 'RES-REGISTER-EMAIL', 'RES-REGISTER-CHALLENGE'],
    proxy: 'a register request of an object with email (string) and at most challengeToken (string) beside it',
    judge: departuresOf('CLIENT-REGISTER-FIELDS'),
  },
  {
    id: 'CLIENT-VERIFY-FIELDS',
    side: 'client',
    sentences: ['EP-VERIFY', 'RES-VERIFY-EMAIL', 'RES-VERIFY-OTP'],
    proxy: 'a verify-email request of an object with email (string) and otp (a string of 6 digits), nothing else',
    judge: departuresOf('CLIENT-VERIFY-FIELDS'),
  },
  {
    id: 'CLIENT-BEARER',
    side: 'client',
    sentences: ['AUTH-STEP-BEARER'],
    proxy: 'Authorization: Bearer <token> on the protected routes of the table',
    judge: departuresOf('CLIENT-BEARER'),
  },
  // Judged over a session by the session judge (rules/session/live-judge.ts): what a client did before counts.
  {
    id: 'CLIENT-ENCOUNTER',
    side: 'client',
    sentences: ['ERR-STATUS-409'],
    proxy: 'no gameplay request while a fighter encounter the server answered 409 for is still open',
    session: ['encounterOpen'],
    // A 409 again: the request came while the encounter of the last one was open.
    judge: (exchange, { encounterOpen }) =>
      encounterOpen === true && exchange.status === 409 && exchange.method.toUpperCase() !== 'GET'
        ? [
            judged(
              'encounter-open',
              false,
              'no gameplay request while an encounter is open',
              'a gameplay request while the fighter encounter of the last 409 was still open (nothing was resolved since)',
            ),
          ]
        : [],
  },
  {
    id: 'CLIENT-RETRY-AFTER',
    side: 'client',
    sentences: ['LIM-429', 'ERR-STATUS-429'],
    proxy: 'no request to a bucket before the Retry-After of its 429 has passed',
    session: ['retryAllowedAt'],
    // The server answered at the latest by serverTime.toMs: a request it answered before the wait ended came early.
    judge(_exchange, { retryAllowedAt, serverTime }) {
      if (retryAllowedAt === undefined || serverTime.toMs >= retryAllowedAt - RETRY_SLACK_MS) return [];
      const early = ((retryAllowedAt - serverTime.toMs) / 1000).toFixed(1);
      return [
        judged(
          'early',
          false,
          "no request before its bucket's Retry-After has passed",
          `sent at least ${early} s before the Retry-After of the last 429 of its bucket had passed`,
        ),
      ];
    },
  },
] as const satisfies readonly Rule[];
