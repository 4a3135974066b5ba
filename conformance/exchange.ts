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

/** The request and response as data, for a JSON report: the bearer token masked, bodies as sent. */
export interface ExchangeRecord {
  request: { method: string; url: string; headers: Record<string, string>; body: string | null };
  response: { status: number; headers: Record<string, string>; body: string };
}

const maskToken = (name: string, value: string) => (name === 'authorization' ? `${value.slice(0, 16)}…` : value);

/** Request headers as reports show them: the bearer token masked. */
export function maskedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, maskToken(name, value)]));
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
  const requestHeaders = Object.entries(exchange.requestHeaders).map(([name, value]) => `  ${name}: ${maskToken(name, value)}`);
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

/** `{base_url}/path`: keeps any path prefix of the base URL. */
export function endpoint(baseUrl: string, path: string): string {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return new URL(path.replace(/^\//, ''), base).toString();
}
