import { BODILESS, isError, isSuccess } from '../rules/envelope.js';
import { errorEnvelope, jsonBody, successEnvelope } from '../rules/envelopes.js';
import type { Exchange } from '../common/exchange.js';
import { expectJudgement } from './expect-rule.js';

/** BODY-JSON, as its rule judges it, on an answer a check expects a body of. */
export function expectJsonBody(exchange: Exchange): void {
  if (!BODILESS.has(exchange.status)) expectJudgement(exchange, jsonBody(exchange));
}

/** ENV-ERROR, as its rule judges it, on an answer a check expects to be an error. */
export function expectErrorEnvelope(exchange: Exchange): void {
  expectJsonBody(exchange);
  expectJudgement(exchange, errorEnvelope(exchange));
}

/** ENV-SUCCESS, as its rule judges it, on an answer a check expects to be a success. */
export function expectSuccessEnvelope(exchange: Exchange): void {
  expectJsonBody(exchange);
  expectJudgement(exchange, successEnvelope(exchange));
}

/** The envelope the status calls for: success on 2xx, error on 4xx and 5xx. */
export function expectEnvelopeForStatus(exchange: Exchange): void {
  if (isSuccess(exchange)) expectSuccessEnvelope(exchange);
  else if (isError(exchange)) expectErrorEnvelope(exchange);
  else expectJsonBody(exchange);
}
