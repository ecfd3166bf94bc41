/**
 * A Map that holds at most `limit` entries: adding one more forgets the oldest. For the per-process memos of values
 * that requests bring (cookies, headers, schemas, versions), which must not grow without end.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}
