/**
 * A least-recently-used cache bounded by bytes: past `budget`, the entries used longest ago
 * are dropped (a caller still holding one keeps it alive until it lets go).
 */
export class ByteCache<T> {
  private readonly entries = new Map<string, { value: T; bytes: number }>();
  private held = 0;

  constructor(readonly budget: number) {}

  /** Bytes held by the entries now cached. */
  get bytes(): number {
    return this.held;
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Re-inserting moves the key to the end of the Map's order: the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: T, bytes: number): void {
    this.delete(key);
    this.entries.set(key, { value, bytes });
    this.held += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.budget) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.held -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }
}
