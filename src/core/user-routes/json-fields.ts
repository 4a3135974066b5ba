import { ApiError } from '../errors.js';

const utf8 = new TextEncoder();

/** A copy that is plain JSON, as a state file or Redis would give it back; a 400 naming `what` when it is not JSON. */
export function jsonCopy(what: string, value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) throw new ApiError(400, `${what} must be a JSON value`);
  return JSON.parse(text);
}

/** Refuses (413) a value whose JSON takes more than `maxBytes` in UTF-8, before anything of the request is kept. */
export function assertJsonWithin(what: string, value: unknown, maxBytes: number): void {
  const bytes = utf8.encode(JSON.stringify(value)).byteLength;
  if (bytes > maxBytes) throw new ApiError(413, `${what} would take ${bytes} bytes; at most ${maxBytes} are kept per player`);
}
