import type { Target } from './target.js';

/** The target's clock through its control API: checks of expiry move it instead of waiting. */
export class ClockControl {
  readonly #target: Target;

  constructor(target: Target) {
    this.#target = target;
  }

  async #post(change: Record<string, unknown>): Promise<number> {
    const exchange = await this.#target.send({ method: 'POST', path: '/__mock/clock', json: change });
    const body = exchange.body as { nowMs?: unknown } | undefined;
    if (exchange.status !== 200 || typeof body?.nowMs !== 'number') throw new Error(`POST /__mock/clock answered ${exchange.status}: ${exchange.text}`);
    return body.nowMs;
  }

  advance(ms: number): Promise<number> {
    return this.#post({ advanceMs: ms });
  }

  /** Freezing keeps boundaries exact: time moves only when a check moves it. */
  freeze(): Promise<number> {
    return this.#post({ frozen: true });
  }

  async now(): Promise<number> {
    const exchange = await this.#target.send({ method: 'GET', path: '/__mock/clock' });
    return (exchange.body as { nowMs: number }).nowMs;
  }
}
