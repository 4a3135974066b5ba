/** Plain records exchanged between a host and the service: no Fetch or node:http types. */

export interface ServiceRequest {
  method: string;
  /** Path without the query string, as sent (not decoded). */
  path: string;
  /** The query string without its `?`; only the control API reads it. */
  query?: string | undefined;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Raw body bytes; hosts may stop reading one byte past the body limit. */
  body?: Uint8Array | undefined;
  /** The client address the host decided on (peer address, or a trusted forwarded one). */
  ip: string;
  /**
   * The transport peer's address, never taken from a header: the control API trusts only this to decide
   * whether a caller is on loopback. Hosts without a peer (in-process) leave it out.
   */
  peer?: string | undefined;
}

export interface ServiceResponse {
  status: number;
  headers: Record<string, string>;
  /** A JSON value, or undefined for a response without a body (a CORS preflight). */
  body: unknown;
  /**
   * An injected fault the host carries out: `reset` cuts the connection instead of answering, `truncate`
   * sends the headers (with the full Content-Length) and part of the body, then cuts it.
   */
  cut?: 'reset' | 'truncate';
  /**
   * A body that is not JSON, sent instead of `body` with the Content-Type of `headers`: text (the dashboard's
   * files), or a stream of text (the journal's server-sent events) that the host cancels when the client goes.
   */
  content?: string | ReadableStream<string>;
}

/** The Content-Type every host gives the service's JSON answers. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A header's first value; any record of lower-case headers will do (a node:http request's too). */
export function headerValue(request: Pick<ServiceRequest, 'headers'>, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function queryParameter(request: ServiceRequest, name: string): string | undefined {
  return request.query === undefined || request.query === '' ? undefined : (new URLSearchParams(request.query).get(name) ?? undefined);
}

/** RFC 9110: HEAD is answered wherever GET is, as GET without the body (the host leaves the body out). */
export function methodToServe(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}

/** The methods a path answers, for Allow: HEAD follows GET. */
export function allowedMethods(methods: Iterable<string>): string[] {
  const allowed = [...new Set(methods)];
  return allowed.includes('GET') ? allowed.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])) : allowed;
}
