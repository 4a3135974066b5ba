import { MAX_BODY_BYTES } from '../core/body.js';

/** Whether a declared Content-Length is over the limit: such a body is not read at all. */
export function declaredOverLimit(contentLength: string | null | undefined): boolean {
  return contentLength !== null && contentLength !== undefined && Number(contentLength) > MAX_BODY_BYTES;
}

/** What stands for a body declared over the limit: one byte past it, enough for the service to answer 413. */
export function overLimitStandIn(): Uint8Array {
  return new Uint8Array(MAX_BODY_BYTES + 1);
}

/**
 * A request body collected chunk by chunk, whatever the host reads it from, up to one byte past the limit:
 * enough for the service to answer 413, so that a host stops reading once `overLimit` is true.
 */
export class CappedBody {
  readonly #chunks: Uint8Array[] = [];
  #size = 0;

  add(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
    this.#size += chunk.byteLength;
  }

  get overLimit(): boolean {
    return this.#size > MAX_BODY_BYTES;
  }

  /** The bytes collected, cut one byte past the limit. */
  bytes(): Uint8Array {
    const bytes = new Uint8Array(Math.min(this.#size, MAX_BODY_BYTES + 1));
    let offset = 0;
    for (const chunk of this.#chunks) {
      const part = chunk.subarray(0, bytes.byteLength - offset);
      bytes.set(part, offset);
      offset += part.byteLength;
    }
    return bytes;
  }
}
