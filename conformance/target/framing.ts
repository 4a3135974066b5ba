/**
 * The ways real clients frame a request the spec accepts, each as good as the others: a JSON Content-Type with a
 * charset parameter or in other letter case (RFC 9110 §8.3.1: both are JSON; .NET, OkHttp and Spring send them),
 * the answer codings a client asks for (every browser asks gzip, deflate, br; curl and most SDKs ask none), and JSON
 * with escapes where plain characters would do.
 * A run cycles through them, from an offset its seed draws, so that each check's requests meet several and the
 * run meets them all: a server that handles one framing only fails the check whose request met another.
 */
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8'] as const;
const ACCEPT_ENCODINGS = [undefined, 'gzip, deflate, br, zstd', 'gzip', 'br'] as const;

export interface Framing {
  contentType: string;
  /** Undefined: the request asks for no coding. */
  acceptEncoding: string | undefined;
  /** The JSON body writes some characters as escapes (`\u0040` for @, `\/` for /), as some serializers do: the same JSON. */
  escapedJson: boolean;
}

/**
 * JSON text with every @ and / written as an escape, and every character past ASCII as \uXXXX: each stands only
 * inside a string of JSON.stringify's output, so the value parsed is the same.
 */
export function escapedJson(json: string): string {
  return json.replace(/[@/\u007f-\uffff]/g, (character) => (character === '/' ? '\\/' : `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

export class RequestFramings {
  #next: number;

  constructor(seed: number) {
    this.#next = seed;
  }

  /** The next request's framing: every pair of a Content-Type and an Accept-Encoding comes round in 16 requests, and with escaped JSON in the next 16. */
  next(): Framing {
    const index = this.#next++;
    const contentType = CONTENT_TYPES[index % CONTENT_TYPES.length]!;
    const pairs = CONTENT_TYPES.length * ACCEPT_ENCODINGS.length;
    const acceptEncoding = ACCEPT_ENCODINGS[Math.floor(index / CONTENT_TYPES.length) % ACCEPT_ENCODINGS.length];
    return { contentType, acceptEncoding, escapedJson: Math.floor(index / pairs) % 2 === 1 };
  }
}
