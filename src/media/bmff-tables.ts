import type { RangeSource } from "../domain/media";
import { ByteView } from "./range-reader";

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
 * Places in a table (an entry and what the entries before it add up to), found by walking
 * forward from the nearest checkpoint (one per 64 entries, noted by the table's one pass) or
 * from one of the places found last, reading entries from cached pages without waiting
 * between them: windows cut side by side each find theirs again.
 */
class EntryWalk<T extends { entry: number }> {
  private readonly checkpoints: T[] = [];
  private readonly cursors: T[] = [];

  constructor(
    private readonly table: EntryTable,
    /** The place of entry `entry` (read at `at` of `view`), given the place before it. */
    private readonly after: (previous: T, view: ByteView, at: number, entry: number) => T,
  ) {}

  /** Notes a place of the one pass over the table; every 64th becomes a checkpoint. */
  note(place: T): void {
    if (place.entry % CHECKPOINT_EVERY === 0) this.checkpoints.push(place);
  }

  get first(): T | undefined {
    return this.checkpoints[0];
  }

  /** The place after `place`, or null past the last entry. */
  async next(place: T): Promise<T | null> {
    if (place.entry + 1 >= this.table.count) return null;
    const { view, at } = await this.table.entry(place.entry + 1);
    return this.after(place, view, at, place.entry + 1);
  }

  /** The last place for which `atOrBefore` holds (it holds for a first stretch of them). */
  async last(atOrBefore: (place: T) => boolean): Promise<T | null> {
    let place = this.checkpoints[lastWhere(this.checkpoints, atOrBefore)];
    for (const known of this.cursors) {
      if (atOrBefore(known) && (place === undefined || known.entry > place.entry)) place = known;
    }
    if (place === undefined) return null;
    for (;;) {
      if (place.entry + 1 >= this.table.count) break;
      const page: { view: ByteView; first: number; count: number } = await this.table.page(
        place.entry + 1,
      );
      let passed = false;
      const from: number = place.entry + 1;
      for (let entry = from; entry < page.first + page.count; entry++) {
        const next: T = this.after(
          place,
          page.view,
          (entry - page.first) * this.table.width,
          entry,
        );
        if (!atOrBefore(next)) {
          passed = true;
          break;
        }
        place = next;
      }
      if (passed) break;
    }
    if (!this.cursors.includes(place)) {
      this.cursors.push(place);
      if (this.cursors.length > CURSORS_KEPT) this.cursors.shift();
    }
    return place;
  }
}

/**
 * A run-length table (`stts`, `ctts`): a sample's run is found by an `EntryWalk`, and one
 * pass notes what bounds the lookups (least and greatest values, zero durations).
 */
export class RunTable {
  private readonly runs: EntryWalk<Run>;
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

  private constructor(
    private readonly table: EntryTable,
    signed: boolean,
  ) {
    this.runs = new EntryWalk(table, (run, view, at, entry) => ({
      entry,
      first: run.first + run.count,
      count: view.u32(at),
      value: signed ? view.i32(at + 4) : view.u32(at + 4),
      sumBefore: run.sumBefore + run.count * run.value,
    }));
  }

  static async read(table: EntryTable, signed: boolean): Promise<RunTable> {
    const runs = new RunTable(table, signed);
    for await (const { view, at, index } of table.all()) {
      const count = view.u32(at);
      const value = signed ? view.i32(at + 4) : view.u32(at + 4);
      runs.runs.note({ entry: index, first: runs.samples, count, value, sumBefore: runs.total });
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
    return this.runs.last((run) => run.first <= sample);
  }

  /** The last run whose sum before it is at most `sum` (for `stts`: decode time → run). */
  async runAtSum(sum: number): Promise<Run | null> {
    if ((this.runs.first?.sumBefore ?? 0) > sum) return null;
    return this.runs.last((run) => run.sumBefore <= sum);
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
      while (run !== null && sample >= run.first + run.count) {
        const next: Run | null = await this.runs.next(run);
        if (next === null) break;
        run = next;
      }
      const inside = run !== null && sample >= run.first && sample < run.first + run.count;
      values.push(inside ? run?.value : undefined);
      sums.push(run === null ? 0 : run.sumBefore + (sample - run.first) * run.value);
    }
    return { values, sums };
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
 * The sample-to-chunk table (`stsc`): runs of chunks with the same number of samples each,
 * found by an `EntryWalk`.
 */
export class ChunkMap {
  private readonly runs: EntryWalk<ChunkRun>;

  private constructor(
    table: EntryTable,
    /** Chunks in the file (entries of `stco`/`co64`): the last run ends there. */
    readonly chunks: number,
  ) {
    this.runs = new EntryWalk(table, (run, view, at, entry) => {
      const firstChunk = view.u32(at) - 1;
      return {
        entry,
        firstChunk,
        perChunk: view.u32(at + 4),
        firstSample: run.firstSample + (firstChunk - run.firstChunk) * run.perChunk,
      };
    });
  }

  static async read(table: EntryTable, chunks: number): Promise<ChunkMap> {
    const map = new ChunkMap(table, chunks);
    let previous: ChunkRun | null = null;
    for await (const { view, at, index } of table.all()) {
      const firstChunk = view.u32(at) - 1;
      const firstSample: number =
        previous === null
          ? 0
          : previous.firstSample + (firstChunk - previous.firstChunk) * previous.perChunk;
      previous = { entry: index, firstChunk, perChunk: view.u32(at + 4), firstSample };
      map.runs.note(previous);
    }
    return map;
  }

  /** The chunk holding sample `sample`; null when no chunk does. */
  async chunkOf(sample: number): Promise<ChunkOf | null> {
    const run = await this.runs.last((each) => each.firstSample <= sample);
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
    const run = await this.runs.last((each) => each.firstChunk <= chunk);
    if (run === null) return null;
    return {
      chunk,
      firstSample: run.firstSample + (chunk - run.firstChunk) * run.perChunk,
      samplesPerChunk: run.perChunk,
    };
  }
}
