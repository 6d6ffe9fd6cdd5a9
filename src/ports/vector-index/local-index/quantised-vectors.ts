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
 * The query's non-zero dimensions and their unit-normalised weights (local queries are sparse).
 * Components are divided by the largest magnitude first, so a tiny query (subnormal squares)
 * keeps its direction instead of losing precision or underflowing to nothing.
 */
export function nonZero(query: ArrayLike<number>): { dims: number[]; weights: number[] } {
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
export function clamp(score: number): number {
  return Math.max(-1, Math.min(1, score));
}
