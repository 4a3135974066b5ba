import type { Suite } from './suite.js';

/** Something the checks of one run share, made on first use by whichever check asks first. */
export type Fixture<T> = (suite: Suite) => Promise<T>;

/** A fixture made once per run and kept in that run's store (suite.fixtures), never in a module. */
export function fixture<T>(make: (suite: Suite) => Promise<T>): Fixture<T> {
  const shared: Fixture<T> = (suite) => suite.fixtures.get(shared, () => make(suite));
  return shared;
}
