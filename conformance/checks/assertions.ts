import type { TestContext } from 'vitest';
import { evidence, exchangeRecord, type Exchange, type ExchangeRecord } from '../common/exchange.js';

/** A check's failure: what was expected, and the exchange that broke it (as text, and as data for --json). */
export class CheckFailure extends Error {
  readonly exchange: ExchangeRecord;

  constructor(expected: string, exchange: Exchange) {
    super(`expected ${expected}\n${evidence(exchange)}`);
    this.name = 'CheckFailure';
    this.exchange = exchangeRecord(exchange);
  }
}

/** Fails the check with what was expected and the exchange that broke it. */
export function expectThat(exchange: Exchange, holds: boolean, expected: string): void {
  if (!holds) throw new CheckFailure(expected, exchange);
}

/** A fact about the target worth reporting that is no failure (a choice the spec leaves open). */
export async function observe(context: TestContext, message: string): Promise<void> {
  await context.annotate(message, 'observation');
}

/** Skips the check, with the reason in the report: a check that cannot run is never counted as passed. */
export function requireThat(context: TestContext, condition: boolean, reasonIfNot: string): void {
  if (!condition) context.skip(reasonIfNot);
}
