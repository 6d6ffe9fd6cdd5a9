/** A row whose vector was deleted or moved: never scored, never returned. */
export const TOMBSTONE = 0xffffffff;

/**
 * Up to `capacity` vectors, one int8 column per dimension (`columns[dim][row]`): a query
 * touches only the columns of its non-zero dimensions, and each column is one contiguous run.
 */
export interface Block {
  capacity: number;
  columns: Int8Array[];
  /** 1 / ‖codes‖, so a dot product with the unit query is a cosine without the scale. */
  invNorms: Float64Array;
  /** Interned video of each row, or TOMBSTONE. */
  videos: Uint32Array;
}

/** A block with room for `capacity` rows, every row a tombstone. */
export function emptyBlock(capacity: number, dimensions: number): Block {
  return {
    capacity,
    columns: Array.from({ length: dimensions }, () => new Int8Array(capacity)),
    invNorms: new Float64Array(capacity),
    videos: new Uint32Array(capacity).fill(TOMBSTONE),
  };
}

/** A copy of the block with room for `capacity` rows. */
export function grown(block: Block, capacity: number): Block {
  const next: Block = {
    capacity,
    columns: block.columns.map((column) => {
      const wider = new Int8Array(capacity);
      wider.set(column);
      return wider;
    }),
    invNorms: new Float64Array(capacity),
    videos: new Uint32Array(capacity).fill(TOMBSTONE),
  };
  next.invNorms.set(block.invNorms);
  next.videos.set(block.videos);
  return next;
}

/** Writes one vector into a row of the block. */
export function setRow(block: Block, row: number, codes: Int8Array, video: number): void {
  let squares = 0;
  for (let d = 0; d < block.columns.length; d++) {
    const code = codes[d] ?? 0;
    const column = block.columns[d];
    if (column) column[row] = code;
    squares += code * code;
  }
  block.invNorms[row] = squares === 0 ? 0 : 1 / Math.sqrt(squares);
  block.videos[row] = video;
}

/** Bytes of a block's typed arrays. */
export function blockBytes(block: Block): number {
  return (
    block.capacity * block.columns.length + block.invNorms.byteLength + block.videos.byteLength
  );
}
