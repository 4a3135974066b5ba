import { errorAnswer } from '../core/answer.js';
import { JSON_CONTENT_TYPE, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { Service } from '../core/service.js';
import { forwardedClientIp } from '../core/client-ip.js';
import { withoutIpv4Mapping } from '../spec/client-address.js';
import { CappedBody, declaredOverLimit, overLimitStandIn } from './capped-body.js';

/** Who sent a request, as far as an in-process or fetch-based host can tell. */
export interface ClientAddressOptions {
  /** The client IP rate-limit buckets are keyed by when nothing better is known; default 127.0.0.1. */
  defaultIp?: string;
  /** Take the client IP from the first X-Forwarded-For hop, like the node host's trustProxy; default false. */
  trustForwardedFor?: boolean;
}

export const DEFAULT_CLIENT_IP = '127.0.0.1';

export interface ClientAddress {
  ip: string;
  /** The transport peer; undefined for callers in the same process, whom the control API always answers. */
  peer: string | undefined;
}

/** The client IP: a trusted forwarded hop, else the connection's address, else the configured default. */
export function clientAddress(service: Service, request: Request, options: ClientAddressOptions, remoteAddress?: string): ClientAddress {
  const peer = remoteAddress === undefined ? undefined : withoutIpv4Mapping(remoteAddress);
  const forwarded =
    options.trustForwardedFor === true ? forwardedClientIp((name) => request.headers.get(name) ?? undefined, service.variants.current) : undefined;
  return { ip: forwarded ?? (peer || options.defaultIp || DEFAULT_CLIENT_IP), peer };
}

/** Reads at most one byte past the body limit, like the node host: enough for the service to answer 413. */
async function readBody(request: Request): Promise<Uint8Array | undefined> {
  if (request.body === null) return undefined;
  if (declaredOverLimit(request.headers.get('content-length'))) {
    await request.body.cancel();
    return overLimitStandIn();
  }
  const reader = request.body.getReader();
  const body = new CappedBody();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    body.add(read.value);
    if (body.overLimit) {
      await reader.cancel();
      break;
    }
  }
  return body.bytes();
}

/** A Fetch Request as the plain record the service reads; Headers already lower-cases the names. */
export async function toServiceRequest(request: Request, client: ClientAddress): Promise<ServiceRequest> {
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname,
    query: url.search === '' ? undefined : url.search.slice(1),
    headers: Object.fromEntries(request.headers),
    body: await readBody(request),
    ip: client.ip,
    peer: client.peer,
  };
}

const utf8 = new TextEncoder();

/**
 * An injected truncate fault: the first half of the body, then the stream errors, as a cut connection does.
 * The error waits a turn of the event loop, so that msw has written the head and the first half before it.
 */
function truncatedBody(json: Uint8Array): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(json.subarray(0, json.byteLength >> 1));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
      controller.error(new TypeError('The connection was cut mid-body (a truncate fault injected by the mock)'));
    },
  });
}

/**
 * A stream of text as bytes, read only as fast as the caller reads (what it has not read stays in the
 * service's bounded queue); cancelling it cancels the service's stream at once, as a pipe would only at
 * its next chunk.
 */
function encodedStream(stream: ReadableStream<string>): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream({
    async pull(controller) {
      const read = await reader.read();
      if (read.done) controller.close();
      else controller.enqueue(utf8.encode(read.value));
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** A body other than JSON: text, or a stream whose cancellation (the caller dropping the body) reaches the service. */
function contentResponse(content: string | ReadableStream<string>, status: number, headers: Headers, toHead: boolean): Response {
  if (typeof content !== 'string') {
    if (toHead) void content.cancel();
    return new Response(toHead ? null : encodedStream(content), { status, headers });
  }
  return new Response(toHead ? null : content, { status, headers });
}

/** The service's answer as the node host writes it: JSON with its length, or no body at all (204, or an answer to HEAD). */
export function toFetchResponse(answer: ServiceResponse, toHead = false): Response {
  // An injected reset: the Fetch network error (msw makes the caller's fetch reject with it).
  if (answer.cut === 'reset') return Response.error();
  const headers = new Headers(answer.headers);
  if (answer.content !== undefined) return contentResponse(answer.content, answer.status, headers, toHead);
  if (answer.body === undefined) return new Response(null, { status: answer.status, headers });
  const json = utf8.encode(JSON.stringify(answer.body));
  headers.set('content-type', JSON_CONTENT_TYPE);
  headers.set('content-length', String(json.byteLength));
  const body = toHead ? null : answer.cut === 'truncate' ? truncatedBody(json) : json;
  return new Response(body, { status: answer.status, headers });
}

/** One Fetch exchange through the service (`adapt` completes what the host knows better); a host bug still answers with an error envelope. */
export async function respondWithService(
  service: Service,
  request: Request,
  client: ClientAddress,
  adapt: (request: ServiceRequest) => ServiceRequest = (same) => same,
): Promise<Response> {
  const serviceRequest = adapt(await toServiceRequest(request, client));
  try {
    return toFetchResponse(await service.handle(serviceRequest), request.method === 'HEAD');
  } catch (error) {
    const failed = errorAnswer(error, (bug) => console.error('Unexpected error in the fetch host:', bug));
    return toFetchResponse({ status: failed.status, headers: {}, body: failed.body });
  }
}
