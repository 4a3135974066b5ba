import { connect } from 'node:net';
import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';

export interface JsonResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or undefined when the body was empty. */
  body: unknown;
  text: string;
}

export interface CallOptions {
  method?: Dispatcher.HttpMethod;
  headers?: Record<string, string>;
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent as is; a stream goes out with chunked transfer-encoding. */
  body?: string | Buffer | Readable;
  dispatcher?: Dispatcher;
}

/** One request through undici; the whole body is read, and parsed when it is not empty. */
export async function call(url: string, options: CallOptions = {}): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await request(url, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body === undefined ? {} : { body }),
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, body: text === '' ? undefined : JSON.parse(text), text };
}

/** A header as one string (undici gives arrays for repeated headers). */
export function header(response: JsonResponse, name: string): string | undefined {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Writes raw bytes to the port and resolves with everything the server sends until it closes. */
export function sendRaw(port: number, bytes: string, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close from the server within ${timeoutMs} ms; got: ${Buffer.concat(chunks).toString()}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(bytes);
  });
}

export interface RawResponse {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
}

/** Splits a raw HTTP/1.1 response (with a content-length body) into its parts. */
export function parseRawResponse(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`not an HTTP response: ${JSON.stringify(raw)}`);
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { statusLine, headers, body: raw.slice(end + 4) };
}
