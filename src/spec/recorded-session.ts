/**
 * The session a recording was made from (`proxy --record`), under the `session` key of the recorded config: the
 * client's requests in the order it sent them, each with the shape of the answer it got. The mock ignores it;
 * `game-service check --recording` sends the requests again to a deployment and compares each answer's shape
 * with the recorded one: the recording as the client's contract.
 */

/** The kind of a JSON value, as a shape names it. */
export type JsonKind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/**
 * Where a request carries a value the run must give it, a placeholder stands in the path, a header or the body:
 * `{{player.email}}` and `{{player.token}}` (the run's player), and `{{answer N /pointer}}`, the value the
 * answer of request N (from 0) held at that JSON Pointer (an id the deployment gave: a ship's, an order's).
 */
export const ANSWER_PLACEHOLDER = /^\{\{answer (\d+) ((?:\/[^/{}]*)*)\}\}$/;
export const PLAYER_EMAIL_PLACEHOLDER = '{{player.email}}';
export const PLAYER_TOKEN_PLACEHOLDER = '{{player.token}}';

/** One request of the session and the shape of its answer. */
export interface RecordedRequest {
  method: string;
  /** The path and query as sent, placeholders where the run gives its own values. */
  path: string;
  /** The recording's route it belongs to (`GET /api/galaxy/:id/sector`): findings name it. */
  route: string;
  /** Sent with the player's bearer token. */
  auth?: boolean;
  /** Which of the recording's players sent it, from 0, where it held more than one (each is a player of the run's own). */
  player?: number;
  /** Headers the client set beyond those of HTTP, CORS and the token (`X-Client-Version`), placeholders where they carry the run's values. */
  requestHeaders?: Record<string, string>;
  /** The JSON body sent, placeholders where the run gives its own values. */
  body?: unknown;
  status: number;
  /** The answer's media type, without its parameters. */
  contentType?: string;
  /** The rate-limit headers and X-ActionPoints-Remaining the answer carried, lower case. */
  headers?: string[];
  /**
   * The JSON type at each JSON Pointer of the answer (`/sector/port_class`: `number`); `*` stands for every item
   * of an array, with the fields all its items had.
   */
  fields?: Record<string, JsonKind>;
  /** Values of the answer the request sent (`/sector/id`: `query.id`), compared by value, where all others are not. */
  follows?: Record<string, string>;
}

const KINDS: JsonKind[] = ['string', 'number', 'boolean', 'object', 'array', 'null'];

/** The JSON Schema of the `session` key. */
export const RECORDED_SESSION_SCHEMA = {
  type: 'array',
  nullable: true,
  items: {
    type: 'object',
    required: ['method', 'path', 'route', 'status'],
    additionalProperties: false,
    properties: {
      method: { type: 'string', minLength: 1 },
      path: { type: 'string', pattern: '^/' },
      route: { type: 'string', minLength: 1 },
      auth: { type: 'boolean', nullable: true },
      player: { type: 'integer', minimum: 0, nullable: true },
      requestHeaders: { type: 'object', nullable: true, required: [], additionalProperties: { type: 'string' } },
      body: {},
      status: { type: 'integer', minimum: 100, maximum: 599 },
      contentType: { type: 'string', nullable: true },
      headers: { type: 'array', nullable: true, items: { type: 'string' } },
      fields: { type: 'object', nullable: true, required: [], additionalProperties: { type: 'string', enum: KINDS } },
      follows: { type: 'object', nullable: true, required: [], additionalProperties: { type: 'string' } },
    },
  },
} as const;
