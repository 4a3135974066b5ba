import { isObject } from '../exchange.js';
import { SIX_DIGITS } from '../formats.js';
import { bearerToken, PROTECTED_ROUTES } from './bearer.js';
import type { ClientRuleId } from './live-rules.js';

/** A departure of the client's own request, before anything the server answered. */
export interface RequestDeparture {
  rule: ClientRuleId;
  message: string;
}

/** The request fields the spec names for its two request bodies: required or not, and the type each must have. */
const REQUEST_FIELDS = {
  '/api/auth/register': { rule: 'CLIENT-REGISTER-FIELDS', required: ['email'], optional: ['challengeToken'] },
  '/api/auth/verify-email': { rule: 'CLIENT-VERIFY-FIELDS', required: ['email', 'otp'], optional: [] },
} as const satisfies Record<string, { rule: ClientRuleId; required: readonly string[]; optional: readonly string[] }>;

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

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
  const routeKey = `${method.toUpperCase()} ${path}`;
  const authorization = headers['authorization'];
  if (PROTECTED_ROUTES.has(routeKey) && bearerToken(headers) === undefined) {
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
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    departures.push({ rule: 'CLIENT-BODY-JSON', message: 'the body is not JSON' });
    return departures;
  }
  if (namesFields) {
    departures.push(...fieldDepartures(path as keyof typeof REQUEST_FIELDS, parsed));
  }
  return departures;
}
