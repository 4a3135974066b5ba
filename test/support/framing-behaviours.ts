import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Mutation, ProxyBehaviour, ResponseContext } from './mutating-proxy.js';

/**
 * How real stacks frame answers and read requests: a gateway that compresses and drops Content-Encoding, a framework
 * that compares Content-Type as a string, and their legal counterparts.
 */

/** The coding the request asked for that this server uses, if any: gzip before br, as most gateways choose. */
function askedCoding({ request }: ResponseContext, codings: readonly string[]): string | undefined {
  const asked = (request.headers['accept-encoding'] ?? '').toLowerCase();
  return codings.find((coding) => asked.split(',').some((each) => each.trim().split(';')[0] === coding));
}

/** The response's JSON as bytes in `coding`. */
function compressed(ctx: ResponseContext, coding: string): Uint8Array | undefined {
  const { response } = ctx;
  const text = response.text ?? (response.body === undefined ? undefined : JSON.stringify(response.body));
  if (text === undefined || text === '') return undefined;
  return coding === 'br' ? brotliCompressSync(text) : gzipSync(text);
}

export const FRAMING_MUTATIONS: readonly Mutation[] = [
  {
    name: 'json-content-type-compared-exactly',
    breaks: 'REG-OK',
    does: 'reads no body labelled anything but exactly application/json (application/json; charset=utf-8, Application/JSON): a registration so sent is refused 400 as if it had no email',
    before: ({ request }) => {
      const type = request.headers['content-type'];
      // Read as no body at all, and refused as the upstream refuses one, its rate-limit headers and all.
      if (request.body !== undefined && type !== undefined && type !== 'application/json') request.body = '{}';
      return undefined;
    },
  },
  {
    name: 'json-fields-read-without-unescaping',
    breaks: 'REG-OK',
    does: "reads a registration's email out of the raw body with a pattern, escapes and all: an address written with \\u0040 for its @ is refused 400",
    before: ({ request }) => {
      if (request.method !== 'POST' || request.path !== '/api/auth/register' || request.body === undefined) return undefined;
      const email = /"email"\s*:\s*"([^"]*)"/.exec(request.body)?.[1];
      // The upstream judges the address as the pattern read it: an escape stays in it, and it is no address.
      if (email?.includes('\\')) request.body = JSON.stringify({ ...(JSON.parse(request.body) as object), email: email.replaceAll('\\', '') });
      return undefined;
    },
  },
  {
    name: 'gzip-without-content-encoding',
    breaks: 'BODY-JSON',
    does: 'gzips the answer when the request asks for gzip, labelled JSON without Content-Encoding (a gateway dropped it)',
    apply: (ctx) => {
      if (askedCoding(ctx, ['gzip']) === undefined) return;
      const bytes = compressed(ctx, 'gzip');
      if (bytes === undefined) return;
      ctx.response.bytes = bytes;
      ctx.response.headers['content-type'] ??= 'application/json; charset=utf-8';
      delete ctx.response.headers['content-encoding'];
    },
  },
];

export const FRAMING_VARIATIONS: readonly ProxyBehaviour[] = [
  {
    name: 'compressed-when-asked',
    does: 'compresses every answer with gzip or br when the request asks for it, saying so in Content-Encoding (as a gateway does)',
    apply: (ctx) => {
      const coding = askedCoding(ctx, ['gzip', 'br']);
      const bytes = coding === undefined ? undefined : compressed(ctx, coding);
      if (bytes === undefined || coding === undefined) return;
      ctx.response.bytes = bytes;
      ctx.response.headers['content-type'] ??= 'application/json; charset=utf-8';
      ctx.response.headers['content-encoding'] = coding;
      ctx.response.headers['vary'] = 'Accept-Encoding';
    },
  },
];
