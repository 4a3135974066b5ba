import { expect, type TestContext } from 'vitest';
import { evidence, type Exchange } from './exchange.js';

/** Fails the check with what was expected and the exchange that broke it. */
export function expectThat(exchange: Exchange, holds: boolean, expected: string): void {
  expect(holds, `expected ${expected}\n${evidence(exchange)}`).toBe(true);
}

/** A fact about the target worth reporting that is no failure (a choice the spec leaves open). */
export async function observe(context: TestContext, message: string): Promise<void> {
  await context.annotate(message, 'observation');
}

/** Skips the check, with the reason in the report: a check that cannot run is never counted as passed. */
export function requireThat(context: TestContext, condition: boolean, reasonIfNot: string): void {
  if (!condition) context.skip(reasonIfNot);
}
