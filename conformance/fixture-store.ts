/**
 * What the fixtures of one run made (a signed-in player, the first verification, a spent bucket), kept by that
 * run's Suite: a check file run alone makes what it needs itself, and nothing of one run reaches another.
 */
export class FixtureStore {
  readonly #made = new Map<unknown, Promise<unknown>>();

  /**
   * What `make` gave this run under `key`, made now when nothing was: every caller gets the same promise. A
   * failure is kept (every later caller fails the same way) unless `forgetFailure`, when the next caller tries again.
   */
  get<T>(key: unknown, make: () => Promise<T>, { forgetFailure = false } = {}): Promise<T> {
    const made = this.#made.get(key);
    if (made !== undefined) return made as Promise<T>;
    const making = make();
    this.#made.set(key, making);
    if (forgetFailure) making.catch(() => this.#made.delete(key));
    return making;
  }

  /** Hands the run what a check made on its way (a client whose bucket it spent), unless the fixture made one already. */
  offer<T>(key: unknown, value: T): void {
    if (!this.#made.has(key)) this.#made.set(key, Promise.resolve(value));
  }
}
