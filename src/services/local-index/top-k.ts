/**
 * The k best (score, slot) pairs seen so far, in a bounded min-heap: a scan over n scores
 * costs O(n log k) at worst and, once the heap is full, mostly a single comparison per score.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly slots: Int32Array;
  private size = 0;

  constructor(readonly capacity: number) {
    this.scores = new Float64Array(capacity);
    this.slots = new Int32Array(capacity);
  }

  /** The score a candidate must beat to enter (−Infinity until the heap is full). */
  get threshold(): number {
    return this.size < this.capacity ? Number.NEGATIVE_INFINITY : (this.scores[0] ?? 0);
  }

  /** Offers a candidate; ties with the current worst keep the earlier one. */
  push(score: number, slot: number): void {
    if (this.capacity === 0) return;
    if (this.size < this.capacity) {
      this.siftUp(this.size++, score, slot);
    } else if (score > (this.scores[0] ?? 0)) {
      this.siftDown(score, slot);
    }
  }

  /** The kept candidates, best first. */
  sorted(): Array<{ score: number; slot: number }> {
    const out: Array<{ score: number; slot: number }> = [];
    for (let i = 0; i < this.size; i++) {
      out.push({ score: this.scores[i] ?? 0, slot: this.slots[i] ?? 0 });
    }
    return out.sort((a, b) => b.score - a.score || a.slot - b.slot);
  }

  private siftUp(start: number, score: number, slot: number): void {
    let i = start;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const parentScore = this.scores[parent] ?? 0;
      if (parentScore <= score) break;
      this.scores[i] = parentScore;
      this.slots[i] = this.slots[parent] ?? 0;
      i = parent;
    }
    this.scores[i] = score;
    this.slots[i] = slot;
  }

  /** Replaces the root (the current worst) and restores the heap. */
  private siftDown(score: number, slot: number): void {
    const n = this.size;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && (this.scores[right] ?? 0) < (this.scores[left] ?? 0)) child = right;
      const childScore = this.scores[child] ?? 0;
      if (childScore >= score) break;
      this.scores[i] = childScore;
      this.slots[i] = this.slots[child] ?? 0;
      i = child;
    }
    this.scores[i] = score;
    this.slots[i] = slot;
  }
}
