import { expectThat } from '../checks/assertions.js';
import { isObject, type Exchange } from '../target/exchange.js';

/** Statuses that carry no body by HTTP's own rules, so "every response body is JSON" cannot apply. */
export const BODILESS = new Set([204, 304]);

export function isError(exchange: Exchange): boolean {
  return exchange.status >= 400 && exchange.status < 600;
}

export function isSuccess(exchange: Exchange): boolean {
  return exchange.status >= 200 && exchange.status < 300;
}

/** BODY-JSON: the body parses as JSON. */
export function expectJsonBody(exchange: Exchange): void {
  if (BODILESS.has(exchange.status)) return;
  expectThat(exchange, exchange.body !== undefined, 'a JSON body (every response body is JSON)');
}

export function isErrorEnvelope(body: unknown): boolean {
  return isObject(body) && typeof body['error'] === 'string';
}

/** ENV-ERROR: {error: string}; other fields are allowed. */
export function expectErrorEnvelope(exchange: Exchange): void {
  expectJsonBody(exchange);
  expectThat(exchange, isErrorEnvelope(exchange.body), 'an error envelope {error: <message string>}');
}

/** ENV-SUCCESS: success: true; other fields are allowed. */
export function expectSuccessEnvelope(exchange: Exchange): void {
  expectJsonBody(exchange);
  expectThat(exchange, isObject(exchange.body) && exchange.body['success'] === true, 'a success envelope {success: true, …}');
}

/** The envelope the status calls for: success on 2xx, error on 4xx and 5xx. */
export function expectEnvelopeForStatus(exchange: Exchange): void {
  if (isSuccess(exchange)) expectSuccessEnvelope(exchange);
  else if (isError(exchange)) expectErrorEnvelope(exchange);
  else expectJsonBody(exchange);
}

/**
 * A rejection whose status the spec leaves open: any 4xx. Its envelope is ENV-ERROR's, judged on every error
 * response of the run (traffic.ts), so that a body without {error} is one departure, reported once.
 */
export function expectClientError(exchange: Exchange, what: string): void {
  expectThat(exchange, exchange.status >= 400 && exchange.status < 500, `a 4xx status (${what})`);
}

/** The message of an error envelope, for observations. */
export function errorMessage(exchange: Exchange): string {
  return isObject(exchange.body) && typeof exchange.body['error'] === 'string' ? exchange.body['error'] : '';
}
