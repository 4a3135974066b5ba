/** Plain records exchanged between a host and the service: no Fetch or node:http types. */

export interface ServiceRequest {
  method: string;
  /** Path without the query string, as sent (not decoded). */
  path: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Raw body bytes; hosts may stop reading one byte past the body limit. */
  body?: Uint8Array | undefined;
  /** The client address the host decided on (peer address, or a trusted forwarded one). */
  ip: string;
}

export interface ServiceResponse {
  status: number;
  headers: Record<string, string>;
  /** A JSON value, or undefined for a response without a body (a CORS preflight). */
  body: unknown;
}

export function headerValue(request: ServiceRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
