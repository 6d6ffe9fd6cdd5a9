/** Each query keeps this share of every dimension's use count: a half-life of ~69 queries. */
const DECAY = 0.99;
/**
 * A dimension displaces a kept one only when used this many times more (decayed): without
 * the margin, the latest query's dimensions (1) outrank the one before's (0.99) and the
 * cache turns over every query, like an LRU.
 */
const MARGIN = 1;

/**
 * Sealed blocks' columns kept in memory, chosen by how often queries use their dimension.
 * A query reads its dimensions' columns in every sealed block; once the columns outgrow the
 * budget, an LRU keeps only the last query or two and each query evicts what the next one
 * needs. Here each query counts its dimensions (with decay, so a shift in what is searched
 * takes over), and a full cache makes room for a column only by dropping the columns of the
 * least used dimension it holds, if that one is used clearly less (`MARGIN`). What is held
 * never exceeds the budget.
 */
export class DimensionCache {
  private readonly uses: Float64Array;
  /** dim → block → column */
  private readonly held = new Map<number, Map<number, Int8Array>>();
  private heldBytes = 0;

  constructor(
    dimensions: number,
    readonly budget: number,
  ) {
    this.uses = new Float64Array(dimensions);
  }

  /** Bytes of the columns held. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Counts one query's dimensions. */
  noteQuery(dims: readonly number[]): void {
    for (let d = 0; d < this.uses.length; d++) this.uses[d] = (this.uses[d] ?? 0) * DECAY;
    for (const dim of dims) this.uses[dim] = (this.uses[dim] ?? 0) + 1;
  }

  get(dim: number, block: number): Int8Array | undefined {
    return this.held.get(dim)?.get(block);
  }

  /** Keeps a block's column if there is room or room can be made; answers whether it was kept. */
  offer(dim: number, block: number, column: Int8Array): boolean {
    const columns = this.held.get(dim) ?? new Map<number, Int8Array>();
    const previous = columns.get(block)?.byteLength ?? 0;
    const needed = column.byteLength - previous;
    if (needed > this.budget) return false;
    while (this.heldBytes + needed > this.budget) {
      const victim = this.leastUsed(dim);
      if (victim === undefined || (this.uses[victim] ?? 0) + MARGIN > (this.uses[dim] ?? 0)) {
        return false;
      }
      this.dropDimension(victim);
    }
    columns.set(block, column);
    this.held.set(dim, columns);
    this.heldBytes += needed;
    return true;
  }

  /** Drops a block's columns (the block was compacted away). */
  deleteBlock(block: number): void {
    for (const [dim, columns] of this.held) {
      const column = columns.get(block);
      if (column === undefined) continue;
      columns.delete(block);
      this.heldBytes -= column.byteLength;
      // A dimension with no columns left is not held: it must not be chosen to make room.
      if (columns.size === 0) this.held.delete(dim);
    }
  }

  /** Drops every column; use counts are kept (they describe the queries, not storage). */
  clear(): void {
    this.held.clear();
    this.heldBytes = 0;
  }

  /** The held dimension other than `except` with the fewest uses (the higher one on a tie). */
  private leastUsed(except: number): number | undefined {
    let victim: number | undefined;
    for (const dim of this.held.keys()) {
      if (dim === except) continue;
      const uses = this.uses[dim] ?? 0;
      const best = victim === undefined ? Number.POSITIVE_INFINITY : (this.uses[victim] ?? 0);
      if (uses < best || (uses === best && victim !== undefined && dim > victim)) victim = dim;
    }
    return victim;
  }

  private dropDimension(dim: number): void {
    for (const column of this.held.get(dim)?.values() ?? []) this.heldBytes -= column.byteLength;
    this.held.delete(dim);
  }
}
