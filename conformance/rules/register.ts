import { isObject, parsedJson } from '../common/exchange.js';
import { isClientError, isSuccess, isSuccessEnvelope } from './envelope.js';
import { readRegisterMessage, SAYS_CODE_WAS_SENT } from './register-message.js';
import { acceptedWhole, refusedParameters, sentEmail } from './parameters.js';
import { dueOk, judged, type Judgement, type Knowledge, type Rule, routeKey } from './rule.js';
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

/** Whether `text` holds `code` whole: not inside a longer run of digits (a timestamp, a count). */
function holdsCode(text: string, code: string): boolean {
  for (let at = text.indexOf(code); at !== -1; at = text.indexOf(code, at + 1)) {
    if (!/\d/.test(text[at - 1] ?? '') && !/\d/.test(text[at + code.length] ?? '')) return true;
  }
  return false;
}

/** Where the answer carries `code`: its body, or the headers named; none where it does not. */
function placesCarrying(exchange: Exchange, code: string): string[] {
  const headers = Object.entries(exchange.headers).filter(([, value]) => holdsCode(value, code));
  return [...(holdsCode(exchange.text, code) ? ['its body'] : []), ...headers.map(([name]) => `its ${name} header`)];
}

/**
 * The code goes to the email, and only there: an answer that hands it back lets anyone sign in as any address
 * (`deliveredCode`: what the OTP source read for the registration's address).
 */
function keepsCodeSecret(exchange: Exchange, { deliveredCode }: Knowledge): Judgement[] {
  if (deliveredCode === undefined || deliveredCode === '') return [];
  const places = placesCarrying(exchange, deliveredCode);
  return [
    judged(
      'code-not-answered',
      places.length === 0,
      'an answer without the code delivered to the email (it goes to the email only)',
      `answered ${exchange.status} carrying, in ${places.join(' and ')}, the code delivered to the email: whoever registers an address can verify it`,
    ),
  ];
}

/**
 * A refused registration leaves nothing pending: no code delivered for its address (`codeDelivered`, where the
 * sender read its OTP source at once after the refusal).
 */
function deliveredNothing(exchange: Exchange, { codeDelivered }: Knowledge, why: string): Judgement[] {
  if (codeDelivered === undefined || isSuccess(exchange)) return [];
  return [
    judged(
      'nothing-delivered',
      !codeDelivered,
      `no code delivered for ${why}, which was refused`,
      `answered ${exchange.status} refusing ${why}, yet delivered a code for it`,
    ),
  ];
}

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
      'STATE-CODE-SENT',
      'AUTH-STEP-REGISTER',
      'AUTH-STEP-CODE',
      'SVC-NO-PASSWORDS',
      'VER-PREFIX',
      'ERR-STATUS-200',
      'EP-BODIES-JSON',
    ],
    proxy: 'an accepted registration says a code was sent',
    // deliveredCode: the code went to the email, so no answer carries it (a check reads it from its OTP source).
    routes: REGISTER_ROUTE,
    judge(exchange, knowledge): Judgement[] {
      if (!isRegister(exchange, knowledge)) return [];
      // A check's registration of a new, valid address, however it frames the JSON body, is due its acceptance.
      const accepted = acceptedWhole(exchange, knowledge);
      const due = [
        ...(knowledge.shaped === true
          ? [
              dueOk(exchange, 'a new, valid address'),
              judged('accepted', accepted, 'a 2xx success for a new, valid address', `answered ${exchange.status} to a new, valid address`),
            ]
          : []),
        ...keepsCodeSecret(exchange, knowledge),
      ];
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
        return [
          judged('refused-400', exchange.status === 400, `a 400 for ${JSON.stringify(email)}, which is no email address`),
          ...deliveredNothing(exchange, knowledge, JSON.stringify(email)),
        ];
      }
      return [
        judged(
          'address',
          !acceptedWhole(exchange, knowledge),
          'a 400 for what is no email address',
          `accepted ${JSON.stringify(email)}, which is no email address`,
        ),
      ];
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
      if (!isRegister(exchange, knowledge)) return [];
      const accepted = acceptedEmail(exchange, knowledge);
      const email = accepted ?? sentEmail(parsedJson(exchange.requestBody));
      if (email === undefined || !looksLikeAddress(email)) return [];
      const domain = domainOf(email);
      const disposable = (DISPOSABLE_DOMAINS as readonly string[]).includes(domain);
      if (accepted !== undefined)
        return [judged('not-disposable', !disposable, 'a 4xx for a disposable-domain address', `accepted an address at ${domain}, a disposable domain`)];
      if (!disposable) return [];
      // A check's disposable address is due a refusal that says so: a 4xx, and no success: true beside it.
      const claimsSuccess = isSuccessEnvelope(exchange.body);
      const refused =
        knowledge.shaped === true
          ? [
              judged(
                'refused',
                isClientError(exchange) && !claimsSuccess,
                'a 4xx without success: true for a disposable-domain address',
                `answered ${exchange.status}${claimsSuccess ? ' with success: true' : ''} to an address at ${domain}`,
              ),
            ]
          : [];
      // Rejected means no code either: a server that emails the code before it looks at the domain has registered the address.
      return [...refused, ...deliveredNothing(exchange, knowledge, `an address at ${domain}`)];
    },
  },
] as const satisfies readonly Rule[];
