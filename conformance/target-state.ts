import { Agent, request } from 'undici';
import type { Capabilities } from './config.js';
import type { ControlAnswer, JsonControlRouteKey } from '../src/spec/control-responses.js';
import { CONTROL_ROUTES } from '../src/spec/control-routes.js';
import type { RateLimitBucket } from '../src/spec/control-schemas.js';
import { endpoint } from './exchange.js';

const bucketId = (bucket: RateLimitBucket) => `${bucket.category} ${bucket.key} ${bucket.count} ${bucket.resetAt}`;

/** Control API calls of the run's own, outside any check (and outside the scheduler: the control API is not rate-limited). */
class ControlClient {
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
    if (response.statusCode !== 200) throw new Error(`${method} ${path} answered ${response.statusCode}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as ControlAnswer<K>;
  }

  /** Every live bucket, following the listing's cursor where it has one. */
  async buckets(): Promise<RateLimitBucket[]> {
    const all: RateLimitBucket[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.call('buckets', cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`);
      all.push(...page.buckets);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return all;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

/**
 * What a run changes of a target with a control API, noted before it starts: the clock (time and frozen state)
 * and the buckets. `restore` puts the clock back where it was, moved on by the real time elapsed if it was
 * running, and empties every bucket the run filled, so that a developer's mock, and the tokens made on it
 * before the run, work after it as before. Returns what it did, for a line of output.
 */
export async function preserveTargetState(baseUrl: string, capabilities: Capabilities | null): Promise<() => Promise<string>> {
  if (capabilities?.clockControl !== true) return async () => '';
  const control = new ControlClient(baseUrl);
  const startedAt = Date.now();
  const clock = await control.call('clock');
  const before = capabilities.buckets ? new Set((await control.buckets()).map(bucketId)) : undefined;
  return async () => {
    try {
      const nowMs = clock.nowMs + (clock.frozen ? 0 : Date.now() - startedAt);
      await control.call('setClock', '', { set: new Date(nowMs).toISOString(), frozen: clock.frozen });
      if (before === undefined) return `the target's clock is back at ${new Date(nowMs).toISOString()}${clock.frozen ? ', frozen' : ''}`;
      const filled = (await control.buckets()).filter((bucket) => !before.has(bucketId(bucket)));
      for (const bucket of filled) await control.call('clearBuckets', `?category=${encodeURIComponent(bucket.category)}&key=${encodeURIComponent(bucket.key)}`);
      const emptied =
        filled.length === 0
          ? ''
          : filled.length === 1
            ? ', and the bucket the run filled is empty again'
            : `, and the ${filled.length} buckets the run filled are empty again`;
      return `the target's clock is back at ${new Date(nowMs).toISOString()}${clock.frozen ? ', frozen' : ''}${emptied}`;
    } finally {
      await control.close();
    }
  };
}
