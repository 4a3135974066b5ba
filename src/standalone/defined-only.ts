/**
 * The entries that were given: options left out stay out, so that the defaults of the layer below
 * (the service, the suite) apply, and are written down only there.
 */
export function definedOnly<T extends Record<string, unknown>>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
