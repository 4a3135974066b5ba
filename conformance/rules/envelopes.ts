import { BODILESS, isErrorEnvelope, isSuccess, isSuccessEnvelope } from './envelope.js';
import type { Exchange } from '../common/exchange.js';
import { modelledStatus } from './modelled-limits.js';
import { dueOk, judged, type Judgement, type Rule, routeKey, TABLE_ROUTES } from './rule.js';

/** An answer to HEAD has no body (RFC 9110 §9.3.2): what the body must be is judged on GET. */
const hasBody = (method: string, status: number) => method.toUpperCase() !== 'HEAD' && !BODILESS.has(status);

/** BODY-JSON's judgement of an answer that has a body: it parses as JSON. */
export const jsonBody = (exchange: Exchange): Judgement => judged('body-json', exchange.body !== undefined, 'a JSON body (every response body is JSON)');

/** ENV-SUCCESS's judgement of a 2xx: success: true; other fields are allowed. */
export const successEnvelope = (exchange: Exchange): Judgement =>
  judged('success-envelope', isSuccessEnvelope(exchange.body), 'a success envelope {success: true, …}', `answered ${exchange.status} without success: true`);

/** What a serializer writes where a message was meant: present, and saying nothing. */
const SAYS_NOTHING = /^\s*(null|undefined|nan|\[object object\]|\{\}|""|'')?\s*$/i;

/** ENV-ERROR's judgement of a 4xx or 5xx: {error: string}, the string a message ("human-readable"); other fields are allowed. */
export function errorEnvelope(exchange: Exchange): Judgement {
  const expected = `an error envelope {error: <message string>} on a ${exchange.status}`;
  if (!isErrorEnvelope(exchange.body)) return judged('error-envelope', false, expected);
  const message = (exchange.body as { error: string }).error;
  return judged(
    'error-envelope',
    !SAYS_NOTHING.test(message),
    `${expected}, its message saying something`,
    `error ${JSON.stringify(message)} on a ${exchange.status}: a human-readable message is due, and this says nothing`,
  );
}

/** What every body is: JSON, a success envelope, an error envelope. */
export const ENVELOPE_RULES = [
  {
    id: 'BODY-JSON',
    side: 'server',
    quote: 'Every response body is JSON.',
    sentences: ['SVC-BODY-JSON', 'EP-BODIES-JSON'],
    fuzz: 'a JSON body on every response that has one',
    proxy: 'a JSON body on every answer of the API that has one',
    judge: (exchange) => (hasBody(exchange.method, exchange.status) ? [jsonBody(exchange)] : []),
  },
  {
    id: 'ENV-SUCCESS',
    side: 'server',
    quote: 'Successful bodies contain success: true.',
    sentences: ['ERR-SUCCESS-BODY', 'RES-SUCCESS-TRUE', 'EP-PLAYER', 'AUTH-STEP-BEARER', 'VER-PREFIX'],
    fuzz: 'success: true on every 2xx of a route of the table but health',
    proxy: 'success: true on every 2xx of a route of the table but health',
    routes: TABLE_ROUTES,
    judge(exchange, knowledge) {
      const route = routeKey(exchange, knowledge);
      if (!TABLE_ROUTES.has(route) || route === 'GET /health') return [];
      // A check's request the route must accept (a valid token, whatever its Accept) is due its success.
      return [
        ...(knowledge.shaped === true ? [dueOk(exchange, `${route} sent as the route accepts it`)] : []),
        ...(isSuccess(exchange) ? [successEnvelope(exchange)] : []),
      ];
    },
  },
  {
    id: 'ENV-ERROR',
    side: 'server',
    quote: 'Error body: {error: <message string>}.',
    sentences: ['ERR-BODY', 'RES-ERROR-MESSAGE'],
    fuzz: 'an error envelope on every 4xx, and a 4xx where a refusal is due',
    proxy: 'an error envelope on every 4xx and 5xx of the API',
    judge: (exchange, knowledge) => [
      ...(exchange.status >= 400 && hasBody(exchange.method, exchange.status) ? [errorEnvelope(exchange)] : []),
      // A refusal the fuzzer's sequence made due, where no limit applies.
      ...modelledStatus('ENV-ERROR', exchange, knowledge),
    ],
  },
] as const satisfies readonly Rule[];
