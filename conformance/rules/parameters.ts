import { isClientError, isSuccess } from './envelope.js';
import { type Exchange, isObject, parsedJson } from '../common/exchange.js';
import { requestDepartures } from './client.js';
import { judged, type Judgement, type Knowledge } from './rule.js';

/** The address a request body sends, when it sends a string. */
export function sentEmail(requestBody: unknown): string | undefined {
  return isObject(requestBody) && typeof requestBody['email'] === 'string' ? requestBody['email'] : undefined;
}

/** The address a request body sends, as the server keys it (the same address whatever its case and padding). */
export const sentAddress = (requestBody: unknown): string | undefined => sentEmail(requestBody)?.trim().toLowerCase();

/** The client departures (client.ts) that leave a required parameter out. */
const MISSING = / is missing|not an object|is not JSON/;

/** The request lacks a parameter the spec requires (its answer is then judged as a refusal, not as an acceptance). */
export function incompleteRequest(exchange: Exchange, knowledge: Knowledge): boolean {
  return requestDepartures(exchange.method, knowledge.path, exchange.requestHeaders, exchange.requestBody).some((departure) => MISSING.test(departure.message));
}

/** How client.ts names a body that is no JSON, and a field of another type than the string it is due. */
const UNREADABLE_BODY = 'the body is not JSON';
const INVALID_TYPE = / is .+, not a string$/;

/** A body that is no object, a required field left out, or an email that is none: missing or invalid whatever the server reads leniently. */
const NO_PARAMETERS = /^the body is .+, not an object|^\w+ is missing$|^email is .+, not a string$/;

/**
 * "400 Bad request: missing or invalid parameters". Where the parameters alone can be wrong (`parametersAlone`), a
 * request missing one, or whose email is none or empty, is answered 400. Elsewhere another refusal may come first (a
 * spent limit, the bot-check): a request missing one answered as if complete, or one with an invalid one answered with
 * a server error, departs.
 */
export function refusedParameters(exchange: Exchange, knowledge: Knowledge): Judgement[] {
  const departures = requestDepartures(exchange.method, knowledge.path, exchange.requestHeaders, exchange.requestBody);
  const { status } = exchange;
  if (knowledge.parametersAlone === true && (departures.some((departure) => NO_PARAMETERS.test(departure.message)) || emptyEmail(exchange))) {
    return [
      judged('refused-400', status === 400, 'a 400 (missing or invalid parameters)', `answered ${status} to missing or invalid parameters: expected 400`),
    ];
  }
  if (knowledge.parametersAlone === true && departures.some((departure) => departure.message === UNREADABLE_BODY)) {
    // No parameter can be read at all: a bad request, whose status a server may name otherwise (415, 422).
    return [
      judged(
        'unreadable-refused',
        isClientError(exchange),
        'a 4xx to a body that is no JSON (a bad request)',
        `answered ${status} to a body that is no JSON: expected a 4xx`,
      ),
    ];
  }
  if (knowledge.parametersAlone === true && knowledge.wrongCode === true && departures.some((departure) => INVALID_TYPE.test(departure.message))) {
    // A field of another type, read leniently, is a code that is not pending: refused either way, as invalid (400) or as wrong.
    return [
      judged(
        'invalid-refused',
        isClientError(exchange),
        'a 4xx to an invalid parameter, whether refused as one or read leniently as a code not pending',
        `answered ${status} to an invalid parameter that no reading makes a pending code: expected a 4xx`,
      ),
    ];
  }
  const incomplete = departures.some((departure) => MISSING.test(departure.message));
  // A field of another type may be read leniently (a numeric otp), never answered with a server error.
  const invalid = incomplete || departures.some((departure) => INVALID_TYPE.test(departure.message));
  return [
    ...(incomplete
      ? [
          judged(
            'missing-refused',
            !isSuccess(exchange),
            'a 400 to a request missing a required parameter',
            `answered ${status} to a request missing a required parameter: expected 400`,
          ),
        ]
      : []),
    ...(invalid
      ? [
          judged(
            'invalid-no-server-error',
            status < 500,
            'a 400 to a request with a missing or invalid parameter, not a server error',
            `answered ${status} to a request with a missing or invalid parameter: expected 400, not a server error`,
          ),
        ]
      : []),
  ];
}

/** The email sent is empty, or white space only: no address, as missing as none. */
const emptyEmail = (exchange: Exchange) => sentEmail(parsedJson(exchange.requestBody))?.trim() === '';

/** An accepted request of the route whose parameters were all there: what its answer says is judged. */
export const acceptedWhole = (exchange: Exchange, knowledge: Knowledge) => isSuccess(exchange) && !incompleteRequest(exchange, knowledge);
