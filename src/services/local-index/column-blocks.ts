/** Vectors per block: big enough for tight scan loops, small enough that growth copies little. */
export const BLOCK = 4096;

/**
 * Column-major within the block (`codes[dim * capacity + row]`): a query touches only the
 * columns of its non-zero dimensions, and each column is one contiguous run.
 */
export interface Block {
  capacity: number;
  codes: Int8Array;
  /** 1 / ‖codes‖, so a dot product with the unit query is a cosine without the scale. */
  invNorms: Float64Array;
  videos: Uint32Array;
}

/** acc[r] = Σ weight·code over the query's dimensions, four columns per pass to save memory traffic. */
export function accumulate(
  acc: Float64Array,
  block: Block,
  size: number,
  dims: number[],
  weights: number[],
): void {
  const { codes, capacity } = block;
  acc.fill(0, 0, size);
  let t = 0;
  for (; t + 4 <= dims.length; t += 4) {
    const o0 = (dims[t] ?? 0) * capacity;
    const o1 = (dims[t + 1] ?? 0) * capacity;
    const o2 = (dims[t + 2] ?? 0) * capacity;
    const o3 = (dims[t + 3] ?? 0) * capacity;
    const w0 = weights[t] ?? 0;
    const w1 = weights[t + 1] ?? 0;
    const w2 = weights[t + 2] ?? 0;
    const w3 = weights[t + 3] ?? 0;
    for (let r = 0; r < size; r++) {
      acc[r] =
        (acc[r] ?? 0) +
        w0 * (codes[o0 + r] ?? 0) +
        w1 * (codes[o1 + r] ?? 0) +
        w2 * (codes[o2 + r] ?? 0) +
        w3 * (codes[o3 + r] ?? 0);
    }
  }
  for (; t < dims.length; t++) {
    const o = (dims[t] ?? 0) * capacity;
    const w = weights[t] ?? 0;
    for (let r = 0; r < size; r++) acc[r] = (acc[r] ?? 0) + w * (codes[o + r] ?? 0);
  }
}

export function emptyBlock(capacity: number, dimensions: number): Block {
  return {
    capacity,
    codes: new Int8Array(capacity * dimensions),
    invNorms: new Float64Array(capacity),
    videos: new Uint32Array(capacity),
  };
}

/** A copy of the block with room for `capacity` rows (each column moves to its new offset). */
export function grown(block: Block, capacity: number, dimensions: number): Block {
  const next = emptyBlock(capacity, dimensions);
  for (let d = 0; d < dimensions; d++) {
    const start = d * block.capacity;
    next.codes.set(block.codes.subarray(start, start + block.capacity), d * capacity);
  }
  next.invNorms.set(block.invNorms);
  next.videos.set(block.videos);
  return next;
}
