import { resolveOptions } from '../../dist/src/core/options.js';
import { seedPlayer } from '../../dist/src/core/world.js';

/**
 * Players a bench server adds at start, each with a token the parent derives from its index without
 * asking: far faster than signing thousands in through the API (or a world of that size, whose checks
 * for repeats take seconds), on memory as on Redis.
 */
export const seededToken = (index) => `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;

/** Players kept every so many, so that no single write to a store engine grows unbounded. */
const KEEP_EVERY = 1_000;

/** Adds `count` players to the service's store, as POST /__mock/players does, and has `keep` write them. */
export async function seedPlayers(service, count, keep = async () => {}) {
  // Seeding reads the action-point rules and the (here empty) ship and player templates.
  const rules = resolveOptions({ version: 'bench' });
  for (let index = 0; index < count; index++) {
    seedPlayer(service.store, rules, { email: `seeded-${index}@example.com`, token: seededToken(index) }, service.clock.now());
    if ((index + 1) % KEEP_EVERY === 0) await keep();
  }
  await keep();
}
