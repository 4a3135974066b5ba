import { Agent, request } from 'undici';
import type { ControlAnswer, JsonControlRouteKey } from '../../src/spec/control-responses.js';
import { CONTROL_ROUTES } from '../../src/spec/control-routes.js';
import type { ControlPlayer, OutboxMessage, RateLimitBucket } from '../../src/spec/control-schemas.js';
import { endpoint } from '../common/exchange.js';

/** A control call the target refused: its status, for a line that says what the run could not undo. */
export class ControlRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ControlRefusal';
  }
}

/** Control API calls of the run's own, outside any check (and outside the scheduler: the control API is not rate-limited). */
export class RunControl {
  readonly #agent = new Agent({ keepAliveTimeout: 1_000 });
  readonly #baseUrl: string;

  constructor(baseUrl: string) {
    this.#baseUrl = baseUrl;
  }

  async call<K extends JsonControlRouteKey>(key: K, query = '', json?: unknown): Promise<ControlAnswer<K>> {
    const { method, pattern } = CONTROL_ROUTES[key];
    const path = `${pattern}${query}`;
    const response = await request(endpoint(this.#baseUrl, path), {
      method,
      dispatcher: this.#agent,
      ...(json === undefined ? {} : { body: JSON.stringify(json), headers: { 'content-type': 'application/json' } }),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new ControlRefusal(response.statusCode, `${method} ${path} answered ${response.statusCode}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as ControlAnswer<K>;
  }

  /** Every live bucket. */
  buckets(): Promise<RateLimitBucket[]> {
    return this.#all('buckets', (page) => page.buckets);
  }

  /** Every player. */
  players(): Promise<ControlPlayer[]> {
    return this.#all('players', (page) => page.players);
  }

  /** Every message the outbox holds. */
  outbox(): Promise<OutboxMessage[]> {
    return this.#all('outbox', (page) => page.messages);
  }

  /** Every entry of a listing, following its cursor. */
  async #all<K extends 'buckets' | 'outbox' | 'players', T>(key: K, items: (page: ControlAnswer<K>) => readonly T[]): Promise<T[]> {
    const all: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.call(key, cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`);
      all.push(...items(page));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return all;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}
