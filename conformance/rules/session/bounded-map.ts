/** A Map that forgets its oldest entries beyond `max`: what the proxy remembers of a long session stays bounded. */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly #max: number;

  constructor(max: number) {
    super();
    this.#max = max;
  }

  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.#max) super.delete(this.keys().next().value as K);
    return this;
  }
}
