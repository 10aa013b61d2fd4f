/**
 * A least-recently-used map bounded by the total bytes of its values, so a burst of large
 * conversions cannot grow the process without limit. Entries larger than the whole budget are
 * not kept at all.
 */
export class ByteLru<V extends { bytes: Buffer }> {
  private readonly entries = new Map<string, V>();
  private total = 0;

  constructor(readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.total;
  }

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value) {
      // Map keeps insertion order: re-inserting marks it most recently used.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    if (value.bytes.length > this.maxBytes) return;
    this.entries.set(key, value);
    this.total += value.bytes.length;
    for (const [oldest, old] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= old.bytes.length;
    }
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.total -= old.bytes.length;
  }
}
