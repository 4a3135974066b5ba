import { maskedBody, maskedHeaderValue, maskedUrl } from '../../src/spec/secrets.js';

/** One request and its response, as a check judges it and as a failure reports it. */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Readonly<Record<string, string>>;
  requestBody: string | undefined;
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  body: unknown;
  /** Local time when the request was sent (ms). */
  sentAt: number;
  /** Local time when the response arrived (ms). */
  receivedAt: number;
}

const MAX_EVIDENCE_BODY = 600;

/** The request and response as data, for a JSON report: credentials masked, bodies as sent. */
export interface ExchangeRecord {
  request: { method: string; url: string; headers: Record<string, string>; body: string | null };
  response: { status: number; headers: Record<string, string>; body: string };
}

/** Request headers as reports show them: credentials masked. */
export function maskedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, maskedHeaderValue(name, value)]));
}

/**
 * The exchange as a report keeps it (a HAR file, a JSON report, a findings page): every secret masked, in the
 * headers both ways, the query, and the bodies (`authToken`, `otp`, a field named like a token or a code).
 */
export function maskedExchange(exchange: Exchange): Exchange {
  const text = maskedBody(exchange.text);
  return {
    ...exchange,
    url: maskedUrl(exchange.url),
    requestHeaders: maskedHeaders(exchange.requestHeaders),
    requestBody: exchange.requestBody === undefined ? undefined : maskedBody(exchange.requestBody),
    headers: maskedHeaders(exchange.headers),
    text,
    body: exchange.body === undefined ? undefined : parsedJson(text),
  };
}

export function exchangeRecord(exchange: Exchange): ExchangeRecord {
  return {
    request: {
      method: exchange.method,
      url: exchange.url,
      headers: maskedHeaders(exchange.requestHeaders),
      body: exchange.requestBody ?? null,
    },
    response: { status: exchange.status, headers: { ...exchange.headers }, body: exchange.text },
  };
}

/** A 400 that asks for the bot-check token: the run needs --challenge-token, whatever the check. */
export function hintFor(exchange: Exchange): string | undefined {
  return exchange.status === 400 && /challenge.?token/i.test(exchange.text) ? 'Hint: the target asks for a bot-check token: pass --challenge-token' : undefined;
}

/** The request and response, printed for a person reading a failure. */
export function evidence(exchange: Exchange): string {
  const requestHeaders = Object.entries(exchange.requestHeaders).map(([name, value]) => `  ${name}: ${maskedHeaderValue(name, value)}`);
  const responseHeaders = Object.entries(exchange.headers).map(([name, value]) => `  ${name}: ${value}`);
  const body = exchange.text.length > MAX_EVIDENCE_BODY ? `${exchange.text.slice(0, MAX_EVIDENCE_BODY)}…` : exchange.text;
  return [
    `> ${exchange.method} ${exchange.url}`,
    ...requestHeaders,
    ...(exchange.requestBody === undefined ? [] : [`  ${exchange.requestBody.slice(0, MAX_EVIDENCE_BODY)}`]),
    `< ${exchange.status}`,
    ...responseHeaders,
    `  ${body}`,
  ]
    .concat(hintFor(exchange) ?? [])
    .join('\n');
}

export function header(exchange: Exchange, name: string): string | undefined {
  return exchange.headers[name.toLowerCase()];
}

/** A header that the spec says is an integer: its value, or undefined when absent or not an integer. */
export function integerHeader(exchange: Exchange, name: string): number | undefined {
  const value = header(exchange, name);
  return value !== undefined && /^-?\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/** A body parsed as JSON, or undefined when it is empty or not JSON. */
export function parsedJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The string at `key` of an object, or undefined when the value is no object or that field no string. */
export function stringField(value: unknown, key: string): string | undefined {
  return isObject(value) && typeof value[key] === 'string' ? value[key] : undefined;
}

/** The token an answer issued (a verification's, the control API's players'): its `authToken`, where it is a string. */
export const issuedToken = (exchange: Pick<Exchange, 'body'>): string | undefined => stringField(exchange.body, 'authToken');

/** `{base_url}/path`: keeps any path prefix of the base URL. */
export function endpoint(baseUrl: string, path: string): string {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return new URL(path.replace(/^\//, ''), base).toString();
}

/** The API path of a URL `endpoint` made from this base URL, without its query: what the spec's route table names. */
export function apiPath(baseUrl: string, url: string): string {
  const basePath = new URL(baseUrl).pathname.replace(/\/$/, '');
  const { pathname } = new URL(url);
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : pathname;
}
