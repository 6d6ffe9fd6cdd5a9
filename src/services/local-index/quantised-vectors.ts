import { accumulate, BLOCK, type Block, emptyBlock, grown } from "./column-blocks";
import { TopK } from "./top-k";

/** A block starts this small, so a workspace with a few segments holds a few KB, not 1.5 MB. */
const FIRST_CAPACITY = 64;
/** Rough heap cost of one string and its map entry, for `bytes()` (V8 does not tell). */
const STRING_OVERHEAD = 64;

/** A vector as int8 codes plus the scale that turns them back into its values. */
export interface Quantised {
  codes: Int8Array;
  scale: number;
}

/** Symmetric per-vector int8 quantisation: the largest magnitude maps to ±127. */
export function quantise(values: ArrayLike<number>): Quantised {
  let max = 0;
  for (let i = 0; i < values.length; i++) max = Math.max(max, Math.abs(values[i] ?? 0));
  const codes = new Int8Array(values.length);
  if (max === 0) return { codes, scale: 0 };
  const k = 127 / max;
  for (let i = 0; i < values.length; i++) codes[i] = Math.round((values[i] ?? 0) * k);
  return { codes, scale: max / 127 };
}

/** One match of a scan: cosine similarity of the query and the stored (quantised) vector. */
export interface StoredMatch {
  id: string;
  videoId: string;
  score: number;
}

/**
 * The in-memory copy of one workspace's vectors: int8 codes in blocks, slot-addressed, kept
 * dense by moving the last vector into a deleted one's slot. Queries scan every vector and
 * keep a bounded heap, which is exact and, at 100k × 384, a few tens of milliseconds.
 */
export class QuantisedVectors {
  private readonly blocks: Block[] = [];
  private readonly ids: string[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly videoNames: string[] = [];
  private readonly videoIndex = new Map<string, number>();
  private readonly scratch = new Float64Array(BLOCK);
  private idBytes = 0;

  constructor(readonly dimensions: number) {}

  /** How many vectors are held. */
  get count(): number {
    return this.ids.length;
  }

  /** Inserts or replaces a vector by id. */
  put(id: string, videoId: string, codes: Int8Array): void {
    if (codes.length !== this.dimensions) throw new Error("vector has the wrong dimensions");
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      this.ids.push(id);
      this.slotOf.set(id, slot);
      this.idBytes += 2 * id.length + STRING_OVERHEAD;
    }
    const block = this.blockFor(slot);
    const row = slot % BLOCK;
    let squares = 0;
    for (let d = 0; d < this.dimensions; d++) {
      const c = codes[d] ?? 0;
      block.codes[d * block.capacity + row] = c;
      squares += c * c;
    }
    block.invNorms[row] = squares === 0 ? 0 : 1 / Math.sqrt(squares);
    block.videos[row] = this.intern(videoId);
  }

  /** Removes a vector; answers whether it was there. */
  delete(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const last = this.ids.length - 1;
    const lastId = this.ids[last] ?? id;
    if (slot !== last) this.move(last, slot, lastId);
    this.ids.pop();
    this.slotOf.delete(id);
    this.idBytes -= 2 * id.length + STRING_OVERHEAD;
    if (last % BLOCK === 0) this.blocks.pop();
    return true;
  }

  /** The `topK` vectors most similar to `query` (any length-matching vector; need not be unit). */
  search(query: ArrayLike<number>, topK: number, videoIds?: readonly string[]): StoredMatch[] {
    if (query.length !== this.dimensions) throw new Error("query has the wrong dimensions");
    const { dims, weights } = nonZero(query);
    const mask = videoIds === undefined ? null : this.videoMask(videoIds);
    if (dims.length === 0 || mask?.includes(1) === false) return [];
    const heap = new TopK(topK);
    const acc = this.scratch;
    for (let b = 0; b < this.blocks.length; b++) {
      const block = this.blocks[b];
      if (block === undefined) break;
      const size = Math.min(BLOCK, this.ids.length - b * BLOCK);
      accumulate(acc, block, size, dims, weights);
      const { invNorms, videos } = block;
      for (let r = 0; r < size; r++) {
        if (mask !== null && mask[videos[r] ?? 0] === 0) continue;
        const score = (acc[r] ?? 0) * (invNorms[r] ?? 0);
        if (score > heap.threshold) heap.push(score, b * BLOCK + r);
      }
    }
    return heap
      .sorted()
      .map(({ score, slot }) => {
        const block = this.blocks[Math.floor(slot / BLOCK)];
        const video = block?.videos[slot % BLOCK] ?? 0;
        const id = this.ids[slot] ?? "";
        return { id, videoId: this.videoNames[video] ?? "", score: clamp(score) };
      })
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }

  /** Bytes held: typed arrays exactly, strings and maps estimated. */
  bytes(): number {
    let total = this.scratch.byteLength + this.idBytes;
    for (const block of this.blocks) {
      total += block.codes.byteLength + block.invNorms.byteLength + block.videos.byteLength;
    }
    for (const name of this.videoNames) total += 2 * name.length + STRING_OVERHEAD;
    return total;
  }

  private blockFor(slot: number): Block {
    const index = Math.floor(slot / BLOCK);
    const row = slot % BLOCK;
    let block = this.blocks[index];
    if (block === undefined) {
      block = emptyBlock(FIRST_CAPACITY, this.dimensions);
      this.blocks[index] = block;
    }
    if (row >= block.capacity) {
      block = grown(block, Math.min(BLOCK, block.capacity * 2), this.dimensions);
      this.blocks[index] = block;
    }
    return block;
  }

  private move(from: number, to: number, id: string): void {
    const source = this.blocks[Math.floor(from / BLOCK)];
    const target = this.blocks[Math.floor(to / BLOCK)];
    if (source === undefined || target === undefined) throw new Error("slot out of range");
    const f = from % BLOCK;
    const t = to % BLOCK;
    for (let d = 0; d < this.dimensions; d++) {
      target.codes[d * target.capacity + t] = source.codes[d * source.capacity + f] ?? 0;
    }
    target.invNorms[t] = source.invNorms[f] ?? 0;
    target.videos[t] = source.videos[f] ?? 0;
    this.ids[to] = id;
    this.slotOf.set(id, to);
  }

  private intern(videoId: string): number {
    let index = this.videoIndex.get(videoId);
    if (index === undefined) {
      index = this.videoNames.length;
      this.videoNames.push(videoId);
      this.videoIndex.set(videoId, index);
    }
    return index;
  }

  private videoMask(videoIds: readonly string[]): Uint8Array {
    const mask = new Uint8Array(this.videoNames.length);
    for (const videoId of videoIds) {
      const index = this.videoIndex.get(videoId);
      if (index !== undefined) mask[index] = 1;
    }
    return mask;
  }
}

/**
 * The query's non-zero dimensions and their unit-normalised weights (local queries are sparse).
 * Components are divided by the largest magnitude first, so a tiny query (subnormal squares)
 * keeps its direction instead of losing precision or underflowing to nothing.
 */
function nonZero(query: ArrayLike<number>): { dims: number[]; weights: number[] } {
  let largest = 0;
  for (let d = 0; d < query.length; d++) largest = Math.max(largest, Math.abs(query[d] ?? 0));
  const dims: number[] = [];
  const weights: number[] = [];
  if (!(largest > 0) || !Number.isFinite(largest)) return { dims, weights };
  let squares = 0;
  for (let d = 0; d < query.length; d++) squares += ((query[d] ?? 0) / largest) ** 2;
  const inv = 1 / Math.sqrt(squares);
  for (let d = 0; d < query.length; d++) {
    const value = query[d] ?? 0;
    if (value !== 0) {
      dims.push(d);
      weights.push((value / largest) * inv);
    }
  }
  return { dims, weights };
}

/** Rounding can leave a cosine a hair outside [-1, 1]. */
function clamp(score: number): number {
  return Math.max(-1, Math.min(1, score));
}
