import { isObject, type Exchange } from '../common/exchange.js';

/** Statuses that carry no body by HTTP's own rules, so "every response body is JSON" cannot apply. */
export const BODILESS = new Set([204, 304]);

export function isError(exchange: Exchange): boolean {
  return exchange.status >= 400 && exchange.status < 600;
}

export function isSuccess(exchange: Exchange): boolean {
  return exchange.status >= 200 && exchange.status < 300;
}

export function isClientError(exchange: Exchange): boolean {
  return exchange.status >= 400 && exchange.status < 500;
}

export function isErrorEnvelope(body: unknown): boolean {
  return isObject(body) && typeof body['error'] === 'string';
}

/** A body that says `success: true`, whatever else it holds. */
export function isSuccessEnvelope(body: unknown): boolean {
  return isObject(body) && body['success'] === true;
}

/** The message of an error envelope, for observations. */
export function errorMessage(exchange: Exchange): string {
  return isObject(exchange.body) && typeof exchange.body['error'] === 'string' ? exchange.body['error'] : '';
}
