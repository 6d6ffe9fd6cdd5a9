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
/** A run table keeps one checkpoint per this many entries: 24 bytes per 256 entries. */
const CHECKPOINT_EVERY = 256;

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

  async u32(index: number, field = 0): Promise<number> {
    const { view, at } = await this.entry(index);
    return view.u32(at + field * 4);
  }

  /** Every entry in order, read in pieces of about 1 MiB that are let go as the pass moves. */
  async *all(): AsyncGenerator<{ view: ByteView; at: number; index: number }> {
    const total = this.count * this.width;
    for (let done = 0; done < total; done += PASS_BYTES) {
      const length = Math.min(PASS_BYTES, total - done);
      const view = new ByteView(await this.source.read(this.start + done, this.start + done + length));
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

/**
 * A run-length table (`stts`, `ctts`): checkpoints every 256 runs, made by one pass, find a
 * sample's run with one binary search and at most 256 entries read from cached pages.
 */
export class RunTable {
  private readonly checkpointEntries: number[] = [];
  private readonly checkpointFirsts: number[] = [];
  private readonly checkpointSums: number[] = [];
  /** Samples the runs cover, and the sum of count × value over all of them. */
  samples = 0;
  total = 0;
  /** The least and greatest values of runs that cover a sample. */
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;
  private cursor: Run | null = null;

  private constructor(
    private readonly table: EntryTable,
    private readonly signed: boolean,
  ) {}

  static async read(table: EntryTable, signed: boolean): Promise<RunTable> {
    const runs = new RunTable(table, signed);
    for await (const { view, at, index } of table.all()) {
      if (index % CHECKPOINT_EVERY === 0) {
        runs.checkpointEntries.push(index);
        runs.checkpointFirsts.push(runs.samples);
        runs.checkpointSums.push(runs.total);
      }
      const count = view.u32(at);
      const value = signed ? view.i32(at + 4) : view.u32(at + 4);
      if (count > 0) {
        runs.min = Math.min(runs.min, value);
        runs.max = Math.max(runs.max, value);
      }
      runs.samples += count;
      runs.total += count * value;
    }
    return runs;
  }

  get entries(): number {
    return this.table.count;
  }

  async run(entry: number, first: number, sumBefore: number): Promise<Run> {
    const { view, at } = await this.table.entry(entry);
    const value = this.signed ? view.i32(at + 4) : view.u32(at + 4);
    return { entry, first, count: view.u32(at), value, sumBefore };
  }

  /** The run holding sample `sample`, or the last run when it lies past them all. */
  async runOf(sample: number): Promise<Run | null> {
    if (this.entries === 0) return null;
    let run = this.cursor;
    if (run === null || sample < run.first) {
      const checkpoint = Math.max(0, lastAtOrBelow(this.checkpointFirsts, sample));
      run = await this.run(
        this.checkpointEntries[checkpoint] ?? 0,
        this.checkpointFirsts[checkpoint] ?? 0,
        this.checkpointSums[checkpoint] ?? 0,
      );
    }
    while (sample >= run.first + run.count && run.entry + 1 < this.entries) {
      run = await this.run(run.entry + 1, run.first + run.count, run.sumBefore + run.count * run.value);
    }
    this.cursor = run;
    return run;
  }

  /** The last run whose sum before it is at most `sum` (for `stts`: decode time → run). */
  async runAtSum(sum: number): Promise<Run | null> {
    if (this.entries === 0) return null;
    const checkpoint = lastAtOrBelow(this.checkpointSums, sum);
    if (checkpoint < 0) return null;
    let run = await this.run(
      this.checkpointEntries[checkpoint] ?? 0,
      this.checkpointFirsts[checkpoint] ?? 0,
      this.checkpointSums[checkpoint] ?? 0,
    );
    while (run.entry + 1 < this.entries) {
      const next = await this.run(
        run.entry + 1,
        run.first + run.count,
        run.sumBefore + run.count * run.value,
      );
      if (next.sumBefore > sum) break;
      run = next;
    }
    this.cursor = run;
    return run;
  }
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

/**
 * The sample-to-chunk table (`stsc`): runs of chunks with the same number of samples each.
 * Checkpoints every 256 entries, made by one pass, keep a lookup to a few cached pages.
 */
export class ChunkMap {
  private readonly checkpointEntries: number[] = [];
  private readonly checkpointFirsts: number[] = [];
  private cursor: { entry: number; firstSample: number } | null = null;

  private constructor(
    private readonly table: EntryTable,
    /** Chunks in the file (entries of `stco`/`co64`): the last run ends there. */
    readonly chunks: number,
  ) {}

  static async read(table: EntryTable, chunks: number): Promise<ChunkMap> {
    const map = new ChunkMap(table, chunks);
    let previous: { firstChunk: number; perChunk: number } | null = null;
    let samples = 0;
    for await (const { view, at, index } of table.all()) {
      const firstChunk = view.u32(at) - 1;
      if (previous !== null) samples += (firstChunk - previous.firstChunk) * previous.perChunk;
      if (index % CHECKPOINT_EVERY === 0) {
        map.checkpointEntries.push(index);
        map.checkpointFirsts.push(samples);
      }
      previous = { firstChunk, perChunk: view.u32(at + 4) };
    }
    return map;
  }

  private async entry(entry: number): Promise<{ firstChunk: number; perChunk: number }> {
    const { view, at } = await this.table.entry(entry);
    return { firstChunk: view.u32(at) - 1, perChunk: view.u32(at + 4) };
  }

  /** The chunk holding sample `sample`; null when no chunk does. */
  async chunkOf(sample: number): Promise<ChunkOf | null> {
    if (this.table.count === 0) return null;
    let place = this.cursor;
    if (place === null || sample < place.firstSample) {
      const checkpoint = Math.max(0, lastAtOrBelow(this.checkpointFirsts, sample));
      place = {
        entry: this.checkpointEntries[checkpoint] ?? 0,
        firstSample: this.checkpointFirsts[checkpoint] ?? 0,
      };
    }
    for (;;) {
      const here = await this.entry(place.entry);
      const nextFirstChunk: number =
        place.entry + 1 < this.table.count
          ? (await this.entry(place.entry + 1)).firstChunk
          : this.chunks;
      const samples: number = (nextFirstChunk - here.firstChunk) * here.perChunk;
      if (sample < place.firstSample + samples || place.entry + 1 >= this.table.count) {
        this.cursor = place;
        if (here.perChunk === 0) return null;
        const chunk = here.firstChunk + Math.floor((sample - place.firstSample) / here.perChunk);
        if (chunk >= this.chunks) return null;
        return {
          chunk,
          firstSample: place.firstSample + (chunk - here.firstChunk) * here.perChunk,
          samplesPerChunk: here.perChunk,
        };
      }
      place = { entry: place.entry + 1, firstSample: place.firstSample + samples };
    }
  }

  /** The first sample of chunk `chunk` and its sample count (PCM audio reads by chunks). */
  async chunkAt(chunk: number): Promise<ChunkOf | null> {
    if (this.table.count === 0 || chunk >= this.chunks) return null;
    // Walk from the start of the run holding the chunk: find it by scanning checkpoints.
    let entry = 0;
    let firstSample = 0;
    for (let checkpoint = this.checkpointEntries.length - 1; checkpoint >= 0; checkpoint--) {
      const at = this.checkpointEntries[checkpoint] ?? 0;
      if ((await this.entry(at)).firstChunk <= chunk) {
        entry = at;
        firstSample = this.checkpointFirsts[checkpoint] ?? 0;
        break;
      }
    }
    for (;;) {
      const here = await this.entry(entry);
      const nextFirstChunk: number =
        entry + 1 < this.table.count ? (await this.entry(entry + 1)).firstChunk : this.chunks;
      if (chunk < nextFirstChunk || entry + 1 >= this.table.count) {
        return {
          chunk,
          firstSample: firstSample + (chunk - here.firstChunk) * here.perChunk,
          samplesPerChunk: here.perChunk,
        };
      }
      firstSample += (nextFirstChunk - here.firstChunk) * here.perChunk;
      entry++;
    }
  }
}
