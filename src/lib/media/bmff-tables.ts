import type { RangeSource } from "../../domain/media";
import { ByteView } from "./window-reader";

/**
 * Pages are a multiple of every entry width (4, 8 and 12 bytes), so no entry straddles two
 * pages; a few pages per table keep a window's lookups to a handful of reads.
 */
const PAGE_BYTES = 48 * 1024;
const PAGES_KEPT = 4;
/** A pass over a whole table reads it in pieces of about 1 MiB, again a multiple of 24. */
const PASS_BYTES = 24 * 43_690;
/** Run tables keep a checkpoint per this many entries: about a byte an entry. */
const CHECKPOINT_EVERY = 64;

/**
 * Fixed-width entries of one sample table, read by pages as they are needed and never held
 * whole: a 10-hour file's tables are tens of MB, the pages a window touches a few hundred KB.
 */
export class EntryTable {
  private readonly pages = new Map<number, ByteView>();

  constructor(
    private readonly source: RangeSource,
    /** File offset of the first entry. */
    private readonly start: number,
    readonly count: number,
    readonly width: number,
  ) {}

  /** The entry at `index`, as a view whose offset 0 is the entry's first byte. */
  async entry(index: number): Promise<{ view: ByteView; at: number }> {
    if (index < 0 || index >= this.count) {
      throw new RangeError(`Sample table entry ${index} is outside its ${this.count} entries.`);
    }
    const offset = index * this.width;
    const page = Math.floor(offset / PAGE_BYTES);
    let view = this.pages.get(page);
    if (view === undefined) {
      const from = this.start + page * PAGE_BYTES;
      const to = Math.min(this.start + this.count * this.width, from + PAGE_BYTES);
      view = new ByteView(await this.source.read(from, to));
      if (view.length < to - from) throw new RangeError("The sample table is cut short.");
      if (this.pages.size >= PAGES_KEPT) {
        const oldest = this.pages.keys().next().value;
        if (oldest !== undefined) this.pages.delete(oldest);
      }
    } else {
      this.pages.delete(page);
    }
    this.pages.set(page, view);
    return { view, at: offset - page * PAGE_BYTES };
  }

  /** The cached page holding entry `index`: its view, and the entries it holds. */
  async page(index: number): Promise<{ view: ByteView; first: number; count: number }> {
    const { view, at } = await this.entry(index);
    const first = index - at / this.width;
    return { view, first, count: view.length / this.width };
  }

  async u32(index: number, field = 0): Promise<number> {
    const { view, at } = await this.entry(index);
    return view.u32(at + field * 4);
  }

  /** Every entry in order, read in pieces of about 1 MiB that are let go as the pass moves. */
  async *all(): AsyncGenerator<{ view: ByteView; at: number; index: number }> {
    const total = this.count * this.width;
    for (let done = 0; done < total; done += PASS_BYTES) {
      const length = Math.min(PASS_BYTES, total - done);
      const view = new ByteView(
        await this.source.read(this.start + done, this.start + done + length),
      );
      if (view.length < length) throw new RangeError("The sample table is cut short.");
      for (let at = 0; at < length; at += this.width) {
        yield { view, at, index: (done + at) / this.width };
      }
    }
  }
}

/** One run of a run-length table: `count` samples from `first`, sharing `value`. */
export interface Run {
  entry: number;
  first: number;
  count: number;
  value: number;
  /** The sum of count × value over the runs before this one (decode time, for `stts`). */
  sumBefore: number;
}

/** Places kept for walking on from: windows cut side by side each find theirs again. */
const CURSORS_KEPT = 8;

/**
 * A run-length table (`stts`, `ctts`): checkpoints every 256 runs, made by one pass, and the
 * runs found last find a sample's run with one binary search and a short walk over cached
 * pages.
 */
export class RunTable {
  private readonly checkpoints: Run[] = [];
  /** Samples the runs cover, and the sum of count × value over all of them. */
  samples = 0;
  total = 0;
  /** The least and greatest values of runs that cover a sample. */
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;
  /** The least value above 0, the samples whose value is 0, and the last sample's value. */
  minPositive = Number.POSITIVE_INFINITY;
  zeros = 0;
  lastValue = 0;
  private readonly cursors: Run[] = [];

  private constructor(
    private readonly table: EntryTable,
    private readonly signed: boolean,
  ) {}

  static async read(table: EntryTable, signed: boolean): Promise<RunTable> {
    const runs = new RunTable(table, signed);
    for await (const { view, at, index } of table.all()) {
      const count = view.u32(at);
      const value = signed ? view.i32(at + 4) : view.u32(at + 4);
      if (index % CHECKPOINT_EVERY === 0) {
        runs.checkpoints.push({
          entry: index,
          first: runs.samples,
          count,
          value,
          sumBefore: runs.total,
        });
      }
      if (count > 0) {
        runs.min = Math.min(runs.min, value);
        runs.max = Math.max(runs.max, value);
        if (value > 0) runs.minPositive = Math.min(runs.minPositive, value);
        if (value === 0) runs.zeros += count;
        runs.lastValue = value;
      }
      runs.samples += count;
      runs.total += count * value;
    }
    return runs;
  }

  get entries(): number {
    return this.table.count;
  }

  /** The run holding sample `sample`, or the last run when it lies past them all. */
  async runOf(sample: number): Promise<Run | null> {
    return this.walk(
      (run) => run.first <= sample,
      (run) => sample < run.first + run.count,
    );
  }

  /**
   * The values of samples [from, from + count) (a sample past the runs has none: undefined),
   * and for `stts` their sums before (decode times), walking the runs once.
   */
  async valuesFrom(
    from: number,
    count: number,
  ): Promise<{ values: (number | undefined)[]; sums: number[] }> {
    const values: (number | undefined)[] = [];
    const sums: number[] = [];
    let run = await this.runOf(from);
    for (let sample = from; sample < from + count; sample++) {
      while (run !== null && sample >= run.first + run.count && run.entry + 1 < this.entries) {
        run = await this.run(
          run.entry + 1,
          run.first + run.count,
          run.sumBefore + run.count * run.value,
        );
      }
      const inside = run !== null && sample >= run.first && sample < run.first + run.count;
      values.push(inside ? run?.value : undefined);
      sums.push(run === null ? 0 : run.sumBefore + (sample - run.first) * run.value);
    }
    return { values, sums };
  }

  private async run(entry: number, first: number, sumBefore: number): Promise<Run> {
    const { view, at } = await this.table.entry(entry);
    const value = this.signed ? view.i32(at + 4) : view.u32(at + 4);
    return { entry, first, count: view.u32(at), value, sumBefore };
  }

  /** The last run whose sum before it is at most `sum` (for `stts`: decode time → run). */
  async runAtSum(sum: number): Promise<Run | null> {
    if (this.entries === 0 || (this.checkpoints[0]?.sumBefore ?? 0) > sum) return null;
    return this.walk(
      (run) => run.sumBefore <= sum,
      (_run, next) => next === undefined || next.sumBefore > sum,
    );
  }

  /**
   * Walks forward from the nearest known run at or before the target (`atOrBefore`) until
   * `reached` holds, reading entries from cached pages without waiting between them.
   */
  private async walk(
    atOrBefore: (run: Run) => boolean,
    reached: (run: Run, next: Run | undefined) => boolean,
  ): Promise<Run | null> {
    if (this.entries === 0) return null;
    let run = this.checkpoints[lastWhere(this.checkpoints, atOrBefore)];
    for (const known of this.cursors) {
      if (atOrBefore(known) && (run === undefined || known.entry > run.entry)) run = known;
    }
    if (run === undefined) return null;
    for (;;) {
      if (run.entry + 1 >= this.entries) break;
      const page: { view: ByteView; first: number; count: number } = await this.table.page(
        run.entry + 1,
      );
      let next: Run | undefined;
      let done = false;
      const from: number = run.entry + 1;
      for (let entry = from; entry < page.first + page.count; entry++) {
        const at = (entry - page.first) * this.table.width;
        next = {
          entry,
          first: run.first + run.count,
          count: page.view.u32(at),
          value: this.signed ? page.view.i32(at + 4) : page.view.u32(at + 4),
          sumBefore: run.sumBefore + run.count * run.value,
        };
        if (reached(run, next)) {
          done = true;
          break;
        }
        run = next;
      }
      if (done) break;
    }
    if (!this.cursors.includes(run)) {
      this.cursors.push(run);
      if (this.cursors.length > CURSORS_KEPT) this.cursors.shift();
    }
    return run;
  }
}

/** Index of the last element for which `holds` is true, for a predicate true then false. */
function lastWhere<T>(sorted: readonly T[], holds: (item: T) => boolean): number {
  let low = 0;
  let high = sorted.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const item = sorted[middle];
    if (item !== undefined && holds(item)) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** Index of the last element of a sorted array at or below `value`; -1 when none is. */
export function lastAtOrBelow(sorted: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] ?? Number.POSITIVE_INFINITY) <= value) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** Where a sample lies: its chunk, and the chunk's first sample and sample count. */
export interface ChunkOf {
  chunk: number;
  firstSample: number;
  samplesPerChunk: number;
}

/** One entry of `stsc` with the samples before it: chunks from `firstChunk` on. */
interface ChunkRun {
  entry: number;
  firstChunk: number;
  perChunk: number;
  firstSample: number;
}

/**
 * The sample-to-chunk table (`stsc`): runs of chunks with the same number of samples each.
 * Checkpoints every 256 entries, made by one pass, and the entries found last keep a lookup
 * to a short walk over cached pages.
 */
export class ChunkMap {
  private readonly checkpoints: ChunkRun[] = [];
  private readonly cursors: ChunkRun[] = [];

  private constructor(
    private readonly table: EntryTable,
    /** Chunks in the file (entries of `stco`/`co64`): the last run ends there. */
    readonly chunks: number,
  ) {}

  static async read(table: EntryTable, chunks: number): Promise<ChunkMap> {
    const map = new ChunkMap(table, chunks);
    let previous: ChunkRun | null = null;
    for await (const { view, at, index } of table.all()) {
      const firstChunk = view.u32(at) - 1;
      const firstSample: number =
        previous === null
          ? 0
          : previous.firstSample + (firstChunk - previous.firstChunk) * previous.perChunk;
      const run = { entry: index, firstChunk, perChunk: view.u32(at + 4), firstSample };
      if (index % CHECKPOINT_EVERY === 0) map.checkpoints.push(run);
      previous = run;
    }
    return map;
  }

  /** The chunk holding sample `sample`; null when no chunk does. */
  async chunkOf(sample: number): Promise<ChunkOf | null> {
    const run = await this.walk((each) => each.firstSample <= sample);
    if (run === null || run.perChunk === 0) return null;
    const chunk = run.firstChunk + Math.floor((sample - run.firstSample) / run.perChunk);
    if (chunk >= this.chunks) return null;
    return {
      chunk,
      firstSample: run.firstSample + (chunk - run.firstChunk) * run.perChunk,
      samplesPerChunk: run.perChunk,
    };
  }

  /** The first sample of chunk `chunk` and its sample count (PCM audio reads by chunks). */
  async chunkAt(chunk: number): Promise<ChunkOf | null> {
    if (chunk >= this.chunks) return null;
    const run = await this.walk((each) => each.firstChunk <= chunk);
    if (run === null) return null;
    return {
      chunk,
      firstSample: run.firstSample + (chunk - run.firstChunk) * run.perChunk,
      samplesPerChunk: run.perChunk,
    };
  }

  /** The last entry for which `atOrBefore` holds, walking on from the nearest one known. */
  private async walk(atOrBefore: (run: ChunkRun) => boolean): Promise<ChunkRun | null> {
    let run: ChunkRun | undefined;
    const checkpoint = this.checkpoints[lastWhere(this.checkpoints, atOrBefore)];
    for (const known of checkpoint === undefined ? this.cursors : [checkpoint, ...this.cursors]) {
      if (atOrBefore(known) && (run === undefined || known.entry > run.entry)) run = known;
    }
    if (run === undefined) return null;
    for (;;) {
      if (run.entry + 1 >= this.table.count) break;
      const page: { view: ByteView; first: number; count: number } = await this.table.page(
        run.entry + 1,
      );
      let done = false;
      const from: number = run.entry + 1;
      for (let entry = from; entry < page.first + page.count; entry++) {
        const at = (entry - page.first) * this.table.width;
        const firstChunk = page.view.u32(at) - 1;
        const next: ChunkRun = {
          entry,
          firstChunk,
          perChunk: page.view.u32(at + 4),
          firstSample: run.firstSample + (firstChunk - run.firstChunk) * run.perChunk,
        };
        if (!atOrBefore(next)) {
          done = true;
          break;
        }
        run = next;
      }
      if (done) break;
    }
    if (!this.cursors.includes(run)) {
      this.cursors.push(run);
      if (this.cursors.length > CURSORS_KEPT) this.cursors.shift();
    }
    return run;
  }
}
