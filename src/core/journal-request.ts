import { maskedBody, maskedHeaderValue } from '../spec/secrets.js';
import type { ServiceRequest } from './http.js';

/** What the journal keeps of a request beyond its line: its headers and body, bounded and with secrets masked. */
export interface KeptRequest {
  requestHeaders: Readonly<Record<string, string>>;
  /** The body as text, cut after MAX_KEPT_BODY_BYTES (a `…` marks the cut); null without one. */
  requestBody: string | null;
}

/** Bounds of one entry: a journal of hundreds of entries holds at most a few megabytes of requests. */
export const MAX_KEPT_BODY_BYTES = 4096;
export const MAX_KEPT_HEADERS = 32;
export const MAX_KEPT_HEADER_CHARS = 256;

const CUT = '…';
const decoder = new TextDecoder();

function keptHeaders(headers: ServiceRequest['headers']): Record<string, string> {
  const kept: Record<string, string> = {};
  let count = 0;
  for (const name in headers) {
    const given = headers[name];
    if (given === undefined) continue;
    if (++count > MAX_KEPT_HEADERS) break;
    const value = typeof given === 'string' ? given : given.join(', ');
    const shown = maskedHeaderValue(name, value);
    kept[name] = shown.length > MAX_KEPT_HEADER_CHARS ? `${shown.slice(0, MAX_KEPT_HEADER_CHARS)}${CUT}` : shown;
  }
  return kept;
}

function keptBody(body: Uint8Array | undefined): string | null {
  if (body === undefined || body.byteLength === 0) return null;
  const cut = body.byteLength > MAX_KEPT_BODY_BYTES;
  // A character split by the cut decodes as U+FFFD: the text stays valid.
  const text = decoder.decode(cut ? body.subarray(0, MAX_KEPT_BODY_BYTES) : body);
  return `${maskedBody(text)}${cut ? CUT : ''}`;
}

/** The request's headers and body as the journal keeps them. */
export function keptRequest(request: ServiceRequest): KeptRequest {
  return { requestHeaders: keptHeaders(request.headers), requestBody: keptBody(request.body) };
}

/** How much of the journal's byte budget an entry's request takes (header text counts one byte a character). */
export function keptRequestBytes({ requestHeaders, requestBody }: KeptRequest): number {
  let bytes = requestBody?.length ?? 0;
  for (const name in requestHeaders) bytes += name.length + requestHeaders[name]!.length;
  return bytes;
}
