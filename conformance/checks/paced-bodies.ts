import type { TestContext } from 'vitest';
import { authIsScarce } from '../fixtures/accounts.js';
import type { Suite } from '../fixtures/suite.js';
import { observe } from './assertions.js';

/**
 * The bodies a check sends to an auth route: all of them, or where one client address paces the run (each costs
 * one of its 5 auth requests a minute) those that stand for their kind, `paced`. The check then notes what it
 * left out, so that a report never reads as if it had sent them.
 */
export async function authBodies<T>(suite: Suite, context: TestContext, all: readonly T[], paced: readonly T[]): Promise<readonly T[]> {
  if (!authIsScarce(suite)) return all;
  const left = all.filter((body) => !paced.includes(body));
  if (left.length > 0) {
    await observe(
      context,
      `one client address paces the run: ${left.map((body) => JSON.stringify(body)).join(', ')} not sent (others of their kind were); --source-ips or --client-ip-header sends every body`,
    );
  }
  return paced;
}
