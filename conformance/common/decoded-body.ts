import * as zlib from 'node:zlib';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';

/** How large a decoded body may grow before the suite stops decoding it (as much as it keeps of a plain one): a decompression bomb stops here. */
export const DECODED_BODY_CAP = 1024 * 1024;

/** Why a body held whole is left undecoded. */
export type UndecodedReason = 'past the decoded-size cap' | 'that failed to decode';

export type DecodedBody = { bytes: Buffer } | { unjudged: UndecodedReason; detail: string };

type Decoder = (bytes: Buffer, options: ZlibOptions) => Buffer;

/** HTTP's `deflate` is zlib-wrapped (RFC 9110 §8.4.1.2), but some servers send it raw: both are read. */
function inflateEither(bytes: Buffer, options: ZlibOptions): Buffer {
  try {
    return inflateSync(bytes, options);
  } catch (error) {
    if (error instanceof RangeError) throw error;
    return inflateRawSync(bytes, options);
  }
}

/** The content codings Node decodes, by their registered names (RFC 9110 §8.4.1; `x-gzip` is gzip's old alias). */
const DECODERS = new Map<string, Decoder>([
  ['gzip', gunzipSync],
  ['x-gzip', gunzipSync],
  ['deflate', inflateEither],
  ['br', brotliDecompressSync],
  // Read off the namespace, not imported by name: a named import of it fails to link on an old Node before the
  // package's version check can say why.
  ['zstd', zlib.zstdDecompressSync as Decoder],
]);

/** The codings of a Content-Encoding header, in the order they were applied; `identity` is none. */
export function contentCodings(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/**
 * A body as its sender meant it: each content coding undone, last applied first, never growing past `cap`
 * bytes (zlib stops there, so a bomb costs no more memory than the cap). An empty body (HEAD, 204, 304) is
 * empty whatever its header says.
 */
export function decodedBody(bytes: Buffer, contentEncoding: string | undefined, cap = DECODED_BODY_CAP): DecodedBody {
  const codings = contentCodings(contentEncoding);
  if (bytes.length === 0 || codings.length === 0) return { bytes };
  let body = bytes;
  for (const coding of codings.toReversed()) {
    const decode = DECODERS.get(coding);
    if (decode === undefined) return { unjudged: 'that failed to decode', detail: `${coding} is not a content coding the suite decodes` };
    try {
      body = decode(body, { maxOutputLength: cap });
    } catch (error) {
      if (error instanceof RangeError) return { unjudged: 'past the decoded-size cap', detail: `its ${coding} body decodes to more than ${cap} bytes` };
      return { unjudged: 'that failed to decode', detail: `its ${coding} body does not decode: ${(error as Error).message}` };
    }
  }
  return { bytes: body };
}
