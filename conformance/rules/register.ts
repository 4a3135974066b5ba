import { isObject, parsedJson } from '../common/exchange.js';
import { readRegisterMessage, SAYS_CODE_WAS_SENT } from './register-message.js';
import { acceptedWhole, refusedParameters, sentEmail } from './parameters.js';
import { judged, type Judgement, type Knowledge, type Rule, routeKey } from './rule.js';
import type { Exchange } from '../common/exchange.js';

/** Domains on every common throwaway-address list. */
export const DISPOSABLE_DOMAINS = ['mailinator.com', 'guerrillamail.com'] as const;

const REGISTER_ROUTE: ReadonlySet<string> = new Set(['POST /api/auth/register']);
const isRegister = (exchange: Exchange, knowledge: Knowledge) => REGISTER_ROUTE.has(routeKey(exchange, knowledge));

/** The address an accepted, whole registration sent: its answer is judged by what the address is. */
function acceptedEmail(exchange: Exchange, knowledge: Knowledge): string | undefined {
  return isRegister(exchange, knowledge) && acceptedWhole(exchange, knowledge) ? sentEmail(parsedJson(exchange.requestBody)) : undefined;
}

const looksLikeAddress = (email: string) => email.includes('@') && !/\s/.test(email.trim());

/**
 * No address by any reading: no @ or several, nothing before or after it, or white space inside. A quoted local
 * part (RFC 5321 allows @ and spaces in one) is left to the server.
 */
function isMalformedAddress(email: string): boolean {
  const trimmed = email.trim();
  if (trimmed.startsWith('"')) return false;
  const parts = trimmed.split('@');
  return parts.length !== 2 || parts[0] === '' || parts[1] === '' || /\s/.test(trimmed);
}
const domainOf = (email: string) => email.split('@').at(-1)?.toLowerCase() ?? '';

/** POST /api/auth/register: its answer to a new address, and the addresses and bodies it must refuse. */
export const REGISTER_RULES = [
  {
    id: 'REG-OK',
    side: 'server',
    quote: 'Register response: success: true, message: Human-readable text saying that a verification code was sent to the email.',
    sentences: [
      'RES-REGISTERED-SUCCESS',
      'RES-REGISTERED-MESSAGE',
      'RES-SUCCESS-FIELDS',
      'RES-REGISTER-CHALLENGE-OPTIONAL',
      'EP-REGISTER',
      'STATE-REGISTER',
      'AUTH-STEP-REGISTER',
      'SVC-NO-PASSWORDS',
      'VER-PREFIX',
      'ERR-STATUS-200',
      'EP-BODIES-JSON',
    ],
    proxy: 'an accepted registration says a code was sent',
    routes: REGISTER_ROUTE,
    judge(exchange, knowledge): Judgement[] {
      if (!isRegister(exchange, knowledge)) return [];
      // A check's registration of a new, valid address, however it frames the JSON body, is due its acceptance.
      const accepted = acceptedWhole(exchange, knowledge);
      const due =
        knowledge.shaped === true
          ? [judged('accepted', accepted, 'a 2xx success for a new, valid address', `answered ${exchange.status} to a new, valid address`)]
          : [];
      if (!accepted) return due;
      const message = isObject(exchange.body) ? exchange.body['message'] : undefined;
      const reading = readRegisterMessage(message, sentEmail(parsedJson(exchange.requestBody)));
      return [...due, judged('says-code-sent', reading !== 'cannot', SAYS_CODE_WAS_SENT, `message ${JSON.stringify(message)}: expected ${SAYS_CODE_WAS_SENT}`)];
    },
  },
  {
    id: 'REG-MISSING',
    side: 'server',
    quote: '400 Bad request: missing or invalid parameters',
    sentences: ['RES-REGISTER-EMAIL', 'ERR-STATUS-400'],
    proxy: 'a register request missing its email is refused, and an invalid one never answered with a server error',
    routes: REGISTER_ROUTE,
    judge: (exchange, knowledge) => (isRegister(exchange, knowledge) ? refusedParameters(exchange, knowledge) : []),
  },
  {
    id: 'REG-INVALID',
    side: 'server',
    quote: '400 Bad request: missing or invalid parameters (email: Email address to verify)',
    sentences: ['RES-REGISTER-EMAIL', 'ERR-STATUS-400', 'STATE-REGISTER'],
    proxy: 'no registration accepted for what is no email address',
    routes: REGISTER_ROUTE,
    judge(exchange, knowledge) {
      if (!isRegister(exchange, knowledge)) return [];
      const email = sentEmail(parsedJson(exchange.requestBody));
      if (email === undefined || !isMalformedAddress(email)) return [];
      // Where the parameters alone can be wrong, the spec's 400 is due; elsewhere another refusal may come first.
      if (knowledge.parametersAlone === true) {
        return [judged('refused-400', exchange.status === 400, `a 400 for ${JSON.stringify(email)}, which is no email address`)];
      }
      if (!acceptedWhole(exchange, knowledge)) return [];
      return [judged('address', false, 'a 400 for what is no email address', `accepted ${JSON.stringify(email)}, which is no email address`)];
    },
  },
  {
    id: 'REG-DISPOSABLE',
    side: 'server',
    quote: 'Registration with a disposable-domain email is rejected.',
    sentences: ['ERR-DISPOSABLE', 'RES-REGISTER-DISPOSABLE', 'STATE-REGISTER'],
    proxy: 'no registration accepted at a disposable domain',
    routes: REGISTER_ROUTE,
    judge(exchange, knowledge) {
      const email = acceptedEmail(exchange, knowledge);
      if (email === undefined || !looksLikeAddress(email)) return [];
      const domain = domainOf(email);
      const disposable = (DISPOSABLE_DOMAINS as readonly string[]).includes(domain);
      return [judged('not-disposable', !disposable, 'a 4xx for a disposable-domain address', `accepted an address at ${domain}, a disposable domain`)];
    },
  },
] as const satisfies readonly Rule[];
