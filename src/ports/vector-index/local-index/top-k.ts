/**
 * The k best (score, slot) pairs seen so far, in a bounded min-heap: a scan over n scores
 * costs O(n log k) at worst and, once the heap is full, mostly a single comparison per score.
 * Of equal scores the lower slot is the better, so what is kept does not depend on the order
 * candidates are offered in.
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

  /** Offers a candidate (callers may skip one whose score is below `threshold`). */
  push(score: number, slot: number): void {
    if (this.capacity === 0) return;
    if (this.size < this.capacity) {
      this.siftUp(this.size++, score, slot);
    } else if (worse(this.scores[0] ?? 0, this.slots[0] ?? 0, score, slot)) {
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
      const parentSlot = this.slots[parent] ?? 0;
      if (!worse(score, slot, parentScore, parentSlot)) break;
      this.scores[i] = parentScore;
      this.slots[i] = parentSlot;
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
      if (
        right < n &&
        worse(
          this.scores[right] ?? 0,
          this.slots[right] ?? 0,
          this.scores[left] ?? 0,
          this.slots[left] ?? 0,
        )
      ) {
        child = right;
      }
      const childScore = this.scores[child] ?? 0;
      const childSlot = this.slots[child] ?? 0;
      if (!worse(childScore, childSlot, score, slot)) break;
      this.scores[i] = childScore;
      this.slots[i] = childSlot;
      i = child;
    }
    this.scores[i] = score;
    this.slots[i] = slot;
  }
}

/** Whether (score a, slot a) ranks below (score b, slot b): a lower score, or a tie and a higher slot. */
function worse(scoreA: number, slotA: number, scoreB: number, slotB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && slotA > slotB);
}
