import { ByteCache } from "./byte-cache";
import { type Block, blockBytes, emptyBlock, grown, setRow, TOMBSTONE } from "./column-blocks";
import { DimensionCache } from "./dimension-cache";
import { clamp, nonZero, type Quantised, type StoredMatch } from "./quantised-vectors";
import { ScanKernel } from "./scan";
import { readMeta, writeMeta } from "./schema";
import { TopK } from "./top-k";

/** Vectors per block: a query reads one 16 KB column per non-zero dimension of each block. */
export const BLOCK_SIZE = 16_384;
/** Sealed blocks' columns and row data kept in memory, at most. */
export const CACHE_BYTES = 64 * 1024 * 1024;
/** The share of the cache for sealed blocks' row data (norms, videos); columns get the rest. */
const ROW_SHARE = 0.25;
/** The open block starts this small, so a workspace with a few segments holds a few KB. */
const FIRST_CAPACITY = 64;

export interface PagedVectorsOptions {
  blockSize?: number;
  cacheBytes?: number;
}

/** What a sealed block keeps per row: norms, videos and how many rows are live. */
interface BlockRows {
  invNorms: Float64Array;
  videos: Uint32Array;
  live: number;
}

/** Where the open block is, and how many vectors are live: mirrored in the `meta` table. */
interface Layout {
  open: Block;
  openBlock: number;
  openSize: number;
  sealed: number[];
  live: number;
}

/**
 * One workspace's int8 vectors in the object's SQLite storage, searched exactly by brute
 * force with bounded memory. Each vector has a slot (block × blockSize + row). Full blocks are
 * sealed: written once as one row per dimension (`block_columns`) plus their norms and videos
 * (`blocks`), and read back per query, only the columns the query needs, through bounded
 * caches: row data by recency, columns by how often queries use their dimension
 * (`DimensionCache`). The open block, where new vectors go, is held in memory and rebuilt from `vectors` on
 * load. Replacing or deleting a sealed vector leaves a tombstone; a block under half live is
 * compacted by moving its live vectors to the open block. The caller runs every write inside
 * a storage transaction and calls `reset()` if one fails.
 */
export class PagedVectors {
  private readonly blockSize: number;
  private readonly firstCapacity: number;
  private readonly rowCache: ByteCache<BlockRows>;
  private readonly columnCache: DimensionCache;
  private readonly kernel = new ScanKernel();
  private readonly dirty = new Map<number, BlockRows>();
  private layout: Layout | null = null;

  constructor(
    private readonly sql: SqlStorage,
    readonly dimensions: number,
    options: PagedVectorsOptions = {},
  ) {
    this.blockSize = options.blockSize ?? BLOCK_SIZE;
    this.firstCapacity = Math.min(FIRST_CAPACITY, this.blockSize);
    const cacheBytes = options.cacheBytes ?? CACHE_BYTES;
    const rowBytes = Math.floor(cacheBytes * ROW_SHARE);
    this.rowCache = new ByteCache(rowBytes);
    this.columnCache = new DimensionCache(dimensions, cacheBytes - rowBytes);
  }

  /** How many vectors are live. */
  get count(): number {
    return this.loaded().live;
  }

  /** Inserts or replaces vectors by id (inside the caller's transaction). */
  upsert(rows: Array<{ id: string; videoId: string; quantised: Quantised }>): void {
    for (const { id, videoId, quantised } of rows) this.put(id, videoId, quantised);
    this.flush();
  }

  /** Deletes vectors by id (inside the caller's transaction); answers how many existed. */
  delete(ids: string[]): number {
    const layout = this.loaded();
    let deleted = 0;
    for (const id of ids) {
      const row = this.sql
        .exec<{ slot: number | null }>("SELECT slot FROM vectors WHERE id = ?", id)
        .toArray()[0];
      if (row === undefined) continue;
      if (row.slot !== null) this.bury(row.slot);
      this.sql.exec("DELETE FROM vectors WHERE id = ?", id);
      layout.live--;
      deleted++;
    }
    this.flush();
    return deleted;
  }

  /** The `topK` vectors most similar to `query`, optionally only of some videos. */
  search(query: ArrayLike<number>, topK: number, videoIds?: readonly string[]): StoredMatch[] {
    if (query.length !== this.dimensions) throw new Error("query has the wrong dimensions");
    const layout = this.loaded();
    const { dims, weights } = nonZero(query);
    const mask = videoIds === undefined ? null : this.videoMask(videoIds);
    if (dims.length === 0 || mask?.includes(1) === false) return [];
    this.columnCache.noteQuery(dims);
    const heap = new TopK(topK);
    const scan = (columns: Int8Array[], rows: BlockRows | Block, size: number, base: number) => {
      const acc = this.kernel.accumulate(columns, weights, size);
      const { invNorms, videos } = rows;
      // The score first: most rows fall below the heap's threshold and need nothing else.
      let threshold = heap.threshold;
      for (let r = 0; r < size; r++) {
        const score = (acc[r] ?? 0) * (invNorms[r] ?? 0);
        if (score < threshold) continue;
        const video = videos[r] ?? TOMBSTONE;
        if (mask === null ? video === TOMBSTONE : mask[video] !== 1) continue;
        heap.push(score, base + r);
        threshold = heap.threshold;
      }
    };
    for (const block of layout.sealed) {
      const rows = this.blockRows(block);
      if (rows.live > 0)
        scan(this.columns(block, dims), rows, this.blockSize, block * this.blockSize);
    }
    const { open, openSize, openBlock } = layout;
    scan(
      dims.map((d) => open.columns[d] ?? new Int8Array(0)),
      open,
      openSize,
      openBlock * this.blockSize,
    );
    return this.resolve(heap.sorted());
  }

  /** Bytes held in memory: the open block, the cache and the scan kernel's memory. */
  bytes(): number {
    const open = this.layout === null ? 0 : blockBytes(this.layout.open);
    return open + this.rowCache.bytes + this.columnCache.bytes + this.kernel.bytes;
  }

  /** Forgets everything held in memory (after a failed transaction); reloaded on next use. */
  reset(): void {
    this.layout = null;
    this.rowCache.clear();
    this.columnCache.clear();
    this.dirty.clear();
  }

  private put(id: string, videoId: string, quantised: Quantised): void {
    const layout = this.loaded();
    const video = this.intern(videoId);
    const existing = this.sql
      .exec<{ slot: number | null }>("SELECT slot FROM vectors WHERE id = ?", id)
      .toArray()[0];
    const base = layout.openBlock * this.blockSize;
    const slot = existing?.slot ?? null;
    if (slot !== null && slot >= base) {
      // Still in the open block: overwrite it where it is.
      this.sql.exec(
        "UPDATE vectors SET video_id = ?, codes = ?, scale = ? WHERE id = ?",
        videoId,
        quantised.codes.buffer,
        quantised.scale,
        id,
      );
      setRow(layout.open, slot - base, quantised.codes, video);
      return;
    }
    if (slot !== null) this.bury(slot);
    if (existing === undefined) layout.live++;
    this.sql.exec(
      `INSERT INTO vectors (id, video_id, codes, scale, slot) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET video_id = excluded.video_id, codes = excluded.codes,
         scale = excluded.scale, slot = excluded.slot`,
      id,
      videoId,
      quantised.codes.buffer,
      quantised.scale,
      this.append(quantised.codes, video),
    );
  }

  /** Places a vector in the next row of the open block (sealing it when full); its slot. */
  private append(codes: Int8Array, video: number): number {
    const layout = this.loaded();
    const row = layout.openSize;
    if (row >= layout.open.capacity) {
      layout.open = grown(layout.open, Math.min(this.blockSize, layout.open.capacity * 2));
    }
    setRow(layout.open, row, codes, video);
    layout.openSize++;
    const slot = layout.openBlock * this.blockSize + row;
    if (layout.openSize === this.blockSize) this.seal();
    return slot;
  }

  /** Writes the full open block as sealed rows and opens the next one. */
  private seal(): void {
    const layout = this.loaded();
    const { open, openBlock } = layout;
    for (const [dim, column] of open.columns.entries()) {
      this.sql.exec(
        "INSERT INTO block_columns (block, dim, codes) VALUES (?, ?, ?)",
        openBlock,
        dim,
        column.buffer,
      );
      this.columnCache.offer(dim, openBlock, column);
    }
    const rows: BlockRows = {
      invNorms: open.invNorms,
      videos: open.videos,
      live: open.videos.filter((video) => video !== TOMBSTONE).length,
    };
    this.dirty.set(openBlock, rows);
    this.rowCache.set(rowsKey(openBlock), rows, rowsBytes(rows));
    layout.sealed.push(openBlock);
    layout.openBlock++;
    layout.openSize = 0;
    layout.open = emptyBlock(this.firstCapacity, this.dimensions);
  }

  /** Marks a slot's row dead; a sealed block's row data is written back by `flush`. */
  private bury(slot: number): void {
    const layout = this.loaded();
    const block = Math.floor(slot / this.blockSize);
    const row = slot % this.blockSize;
    if (block === layout.openBlock) {
      layout.open.videos[row] = TOMBSTONE;
      layout.open.invNorms[row] = 0;
      return;
    }
    const rows = this.blockRows(block);
    if (rows.videos[row] === TOMBSTONE) return;
    rows.videos[row] = TOMBSTONE;
    rows.invNorms[row] = 0;
    rows.live--;
    this.dirty.set(block, rows);
  }

  /** Writes changed row data and the layout; compacts sealed blocks left under half live. */
  private flush(): void {
    const layout = this.loaded();
    // A Map visits entries added while it is iterated: compaction can seal a block.
    for (const [block, rows] of this.dirty) {
      this.dirty.delete(block);
      if (rows.live * 2 < this.blockSize) this.compact(block);
      else {
        this.sql.exec(
          `INSERT INTO blocks (block, inv_norms, videos, live) VALUES (?, ?, ?, ?)
           ON CONFLICT (block) DO UPDATE SET inv_norms = excluded.inv_norms,
             videos = excluded.videos, live = excluded.live`,
          block,
          rows.invNorms.buffer,
          rows.videos.buffer,
          rows.live,
        );
      }
    }
    writeMeta(this.sql, "open_block", layout.openBlock);
    writeMeta(this.sql, "open_size", layout.openSize);
    writeMeta(this.sql, "live", layout.live);
  }

  /** Drops a sealed block, moving its live vectors to the open block. */
  private compact(block: number): void {
    const layout = this.loaded();
    layout.sealed = layout.sealed.filter((b) => b !== block);
    this.sql.exec("DELETE FROM block_columns WHERE block = ?", block);
    this.sql.exec("DELETE FROM blocks WHERE block = ?", block);
    this.columnCache.deleteBlock(block);
    this.rowCache.delete(rowsKey(block));
    const moving = this.sql
      .exec<{ id: string; video_id: string; codes: ArrayBuffer }>(
        "SELECT id, video_id, codes FROM vectors WHERE slot >= ? AND slot < ? ORDER BY slot",
        block * this.blockSize,
        (block + 1) * this.blockSize,
      )
      .toArray();
    for (const row of moving) {
      const slot = this.append(new Int8Array(row.codes), this.intern(row.video_id));
      this.sql.exec("UPDATE vectors SET slot = ? WHERE id = ?", slot, row.id);
    }
  }

  private loaded(): Layout {
    if (this.layout !== null) return this.layout;
    const openBlock = readMeta(this.sql, "open_block");
    const layout: Layout = {
      open: emptyBlock(this.firstCapacity, this.dimensions),
      openBlock,
      openSize: readMeta(this.sql, "open_size"),
      sealed: this.sql
        .exec<{ block: number }>("SELECT block FROM blocks ORDER BY block")
        .toArray()
        .map((row) => row.block),
      live: readMeta(this.sql, "live"),
    };
    if (layout.openSize > this.firstCapacity) {
      layout.open = grown(layout.open, Math.min(this.blockSize, ceilPow2(layout.openSize)));
    }
    const base = openBlock * this.blockSize;
    for (const row of this.sql.exec<{ slot: number; codes: ArrayBuffer; video: number }>(
      `SELECT vectors.slot AS slot, vectors.codes AS codes, video_names.video AS video
       FROM vectors JOIN video_names ON video_names.name = vectors.video_id
       WHERE vectors.slot >= ? AND vectors.slot < ?`,
      base,
      base + this.blockSize,
    )) {
      setRow(layout.open, row.slot - base, new Int8Array(row.codes), row.video);
    }
    this.layout = layout;
    return layout;
  }

  /** Gives vectors written before slots existed (schema version 1) one; in a transaction. */
  placeUnslotted(): void {
    const rows = this.sql
      .exec<{ id: string; video_id: string; codes: ArrayBuffer }>(
        "SELECT id, video_id, codes FROM vectors WHERE slot IS NULL ORDER BY rowid",
      )
      .toArray();
    if (rows.length === 0) return;
    const layout = this.loaded();
    for (const row of rows) {
      const slot = this.append(new Int8Array(row.codes), this.intern(row.video_id));
      this.sql.exec("UPDATE vectors SET slot = ? WHERE id = ?", slot, row.id);
      layout.live++;
    }
    this.flush();
  }

  private blockRows(block: number): BlockRows {
    // Rows changed in this write are not in storage yet (and a small cache may have let go).
    const pending = this.dirty.get(block);
    if (pending !== undefined) return pending;
    const key = rowsKey(block);
    const cached = this.rowCache.get(key);
    if (cached !== undefined) return cached;
    const row = this.sql
      .exec<{ inv_norms: ArrayBuffer; videos: ArrayBuffer; live: number }>(
        "SELECT inv_norms, videos, live FROM blocks WHERE block = ?",
        block,
      )
      .one();
    const rows: BlockRows = {
      invNorms: new Float64Array(row.inv_norms),
      videos: new Uint32Array(row.videos),
      live: row.live,
    };
    this.rowCache.set(key, rows, rowsBytes(rows));
    return rows;
  }

  /** The block's columns of these dimensions, from the cache or in one read. */
  private columns(block: number, dims: number[]): Int8Array[] {
    const found = new Map<number, Int8Array>();
    const missing: number[] = [];
    for (const dim of dims) {
      const cached = this.columnCache.get(dim, block);
      if (cached !== undefined) found.set(dim, cached);
      else missing.push(dim);
    }
    if (missing.length > 0) {
      for (const row of this.sql.exec<{ dim: number; codes: ArrayBuffer }>(
        `SELECT dim, codes FROM block_columns
         WHERE block = ? AND dim IN (SELECT value FROM json_each(?))`,
        block,
        JSON.stringify(missing),
      )) {
        const column = new Int8Array(row.codes);
        found.set(row.dim, column);
        this.columnCache.offer(row.dim, block, column);
      }
    }
    return dims.map((dim) => found.get(dim) ?? new Int8Array(this.blockSize));
  }

  private resolve(best: Array<{ score: number; slot: number }>): StoredMatch[] {
    if (best.length === 0) return [];
    const bySlot = new Map<number, { id: string; video_id: string }>();
    for (const row of this.sql.exec<{ slot: number; id: string; video_id: string }>(
      "SELECT slot, id, video_id FROM vectors WHERE slot IN (SELECT value FROM json_each(?))",
      JSON.stringify(best.map((entry) => entry.slot)),
    )) {
      bySlot.set(row.slot, row);
    }
    return best
      .flatMap(({ score, slot }) => {
        const row = bySlot.get(slot);
        return row ? [{ id: row.id, videoId: row.video_id, score: clamp(score) }] : [];
      })
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }

  private intern(videoId: string): number {
    this.sql.exec(
      "INSERT INTO video_names (name) VALUES (?) ON CONFLICT (name) DO NOTHING",
      videoId,
    );
    return this.sql
      .exec<{ video: number }>("SELECT video FROM video_names WHERE name = ?", videoId)
      .one().video;
  }

  /** 1 at the interned index of each named video that has one. */
  private videoMask(videoIds: readonly string[]): Uint8Array {
    const known = this.sql
      .exec<{ video: number }>(
        "SELECT video FROM video_names WHERE name IN (SELECT value FROM json_each(?))",
        JSON.stringify(videoIds),
      )
      .toArray()
      .map((row) => row.video);
    const mask = new Uint8Array(known.reduce((top, video) => Math.max(top, video + 1), 0));
    for (const video of known) mask[video] = 1;
    return mask;
  }
}

function rowsKey(block: number): string {
  return `r${block}`;
}

function rowsBytes(rows: BlockRows): number {
  return rows.invNorms.byteLength + rows.videos.byteLength;
}

function ceilPow2(value: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, value)));
}
