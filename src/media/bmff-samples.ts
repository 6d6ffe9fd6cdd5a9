import { EncodedPacket, PCM_AUDIO_CODECS } from "mediabunny";
import type { RangeSource } from "../domain/media";
import { ChunkMap, EntryTable, RunTable } from "./bmff-tables";
import { ByteView, RangeReader } from "./range-reader";

/** Box headers are sparse in a moov: small windows keep the walk to a few reads. */
const HEADER_WINDOW_BYTES = 4 * 1024;
/**
 * A moov up to this size (about two hours of 1080p) is read in one piece and its tables are
 * looked up in memory; a bigger one is walked and read by ranges.
 */
const HELD_MOOV_BYTES = 4 * 1024 * 1024;
/** Boxes under `stbl` that grow with the sample count: read by ranges, never copied. */
const SAMPLE_TABLES = new Set(["stts", "ctts", "stss", "stsz", "stz2", "stsc", "stco", "co64"]);
/** Per-sample side tables nothing here reads: left out of the copy for mediabunny. */
const SIDE_TABLES = new Set(["sdtp", "stps", "sbgp", "sgpd", "subs", "saiz", "saio", "cslg"]);
/** Boxes a moov nests tracks and tables in; the walk descends into these only. */
const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "edts"]);

/** A box's place in the file. */
export interface BoxLocation {
  type: string;
  start: number;
  headerSize: number;
  end: number;
}

/** Where one track's tables lie in the file, and what its headers say of its timing. */
export interface TrackTables {
  id: number;
  timescale: number;
  /** Subtracted from a presentation time before it is turned into seconds (the edit list). */
  editOffset: number;
  tables: Map<string, BoxLocation>;
}

/** A non-fragmented ISO BMFF file's moov: its tracks' tables and a copy of it without them. */
export interface BmffIndex {
  tracks: Map<number, TrackTables>;
  /**
   * The file's `ftyp` and `moov` with every sample table emptied: a few KB that mediabunny
   * reads for codecs, decoder configurations and tags without expanding the tables.
   */
  headers: Uint8Array;
  /** The body of the moov within `headers`, for readers of the timed-text tracks. */
  moov: Uint8Array;
  /** The file, serving a small moov from memory: what the tables are read through. */
  source: RangeSource;
}

/**
 * Walks a non-fragmented MP4/MOV's moov by box headers alone. Null for a fragmented file
 * (its index lives in the fragments), one without a moov, or anything not ISO BMFF; the
 * caller reads those otherwise. Throws RangeError where the boxes' sizes do not fit.
 */
export async function readBmffIndex(source: RangeSource): Promise<BmffIndex | null> {
  const top = await new MoovWalk(new RangeReader(source, HEADER_WINDOW_BYTES)).topLevel();
  const moov = top.find((box) => box.type === "moov");
  if (moov === undefined || top.some((box) => box.type === "moof")) return null;
  const ftyp = top.find((box) => box.type === "ftyp");
  const tables =
    moov.end - moov.start <= HELD_MOOV_BYTES
      ? holding(source, moov.start, await source.read(moov.start, moov.end))
      : source;
  const walk = new MoovWalk(new RangeReader(tables, HEADER_WINDOW_BYTES));
  const moovCopy = await walk.copy(moov);
  if (walk.fragmented) return null;
  const ftypCopy =
    ftyp === undefined || ftyp.end - ftyp.start > HEADER_WINDOW_BYTES
      ? new Uint8Array(0)
      : await source.read(ftyp.start, ftyp.end);
  const headers = new Uint8Array(ftypCopy.length + moovCopy.length);
  headers.set(ftypCopy, 0);
  headers.set(moovCopy, ftypCopy.length);
  return {
    tracks: walk.tracks(),
    headers,
    moov: headers.subarray(ftypCopy.length + 8),
    source: tables,
  };
}

/** `source`, with the bytes `held` (read from `start`) served from memory. */
function holding(source: RangeSource, start: number, held: Uint8Array): RangeSource {
  const end = start + held.length;
  return {
    size: source.size,
    read: async (from, to) =>
      from >= start && Math.min(to, source.size) <= end
        ? held.subarray(from - start, to - start)
        : source.read(from, to),
  };
}

interface TrackDraft {
  id?: number;
  /** The media handler (`vide`, `soun`, `text`, `sbtl`, …). */
  handler?: string;
  timescale?: number;
  edit?: { previous: number; mediaTime: number };
  tables: Map<string, BoxLocation>;
}

class MoovWalk {
  fragmented = false;
  private movieTimescale = 1;
  private readonly drafts: TrackDraft[] = [];
  private track: TrackDraft | null = null;

  constructor(private readonly reader: RangeReader) {}

  tracks(): Map<number, TrackTables> {
    const tracks = new Map<number, TrackTables>();
    for (const draft of this.drafts) {
      if (draft.id === undefined || !draft.timescale) continue;
      // As mediabunny reads an edit list: the first edit that shows media, less the empty
      // edits before it (in the movie's timescale, turned into the track's).
      const edit = draft.edit;
      const editOffset =
        edit === undefined
          ? 0
          : edit.mediaTime - Math.round((edit.previous / this.movieTimescale) * draft.timescale);
      tracks.set(draft.id, {
        id: draft.id,
        timescale: draft.timescale,
        editOffset,
        tables: draft.tables,
      });
    }
    return tracks;
  }

  /**
   * A copy of `box` with the sample tables of its audio and video tracks emptied, noting what
   * the walk passes. Other tracks (timed text) keep theirs: one entry per cue, small.
   */
  async copy(box: BoxLocation, parent = ""): Promise<Uint8Array> {
    const bodyStart = box.start + box.headerSize;
    if (!CONTAINERS.has(box.type)) {
      if (SAMPLE_TABLES.has(box.type)) {
        this.track?.tables.set(box.type, box);
        const handler = this.track?.handler;
        if (handler === "vide" || handler === "soun") {
          return emptyTable(box.type, await this.reader.bytes(bodyStart, 8));
        }
      }
      if (SIDE_TABLES.has(box.type)) return new Uint8Array(0);
      if (box.type === "mvex") this.fragmented = true;
      const body = await this.reader.source.read(bodyStart, box.end);
      if (body.length < box.end - bodyStart) throw new RangeError(`The "${box.type}" box is cut.`);
      this.note(box.type, parent, new ByteView(body));
      return withHeader(box.type, [body]);
    }
    if (box.type === "trak") {
      this.track = { tables: new Map() };
      this.drafts.push(this.track);
    }
    const parts: Uint8Array[] = [];
    for (const child of await this.children(box)) parts.push(await this.copy(child, box.type));
    if (box.type === "trak") this.track = null;
    return withHeader(box.type, parts);
  }

  /** The top-level boxes up to the moov or the first fragment; none for a file of no boxes. */
  async topLevel(): Promise<BoxLocation[]> {
    const boxes: BoxLocation[] = [];
    let position = 0;
    while (position + 8 <= this.reader.size) {
      const box = await this.boxAt(position, this.reader.size, true);
      if (box === null) break;
      boxes.push(box);
      if (box.type === "moov" || box.type === "moof") break;
      position = box.end;
    }
    return boxes;
  }

  private async children(box: BoxLocation): Promise<BoxLocation[]> {
    const children: BoxLocation[] = [];
    let position = box.start + box.headerSize;
    while (position + 8 <= box.end) {
      const child = await this.boxAt(position, box.end, false);
      if (child === null) break;
      children.push(child);
      position = child.end;
    }
    return children;
  }

  /** The box whose header is at `position`, inside a parent ending at `end`. */
  private async boxAt(position: number, end: number, top: boolean): Promise<BoxLocation | null> {
    const header = new ByteView(await this.reader.bytes(position, 16));
    let size = header.u32(0);
    const type = header.fourCc(4);
    let headerSize = 8;
    if (size === 1) {
      size = header.u64(8);
      headerSize = 16;
    } else if (size === 0) {
      size = end - position;
    }
    // Junk after the last top-level box, or QuickTime's 4-byte zero terminator of a list.
    if (top && !/^[\x20-\x7e]{4}$/.test(type)) return null;
    if (size < headerSize && header.u32(0) === 0) return null;
    if (size < headerSize || position + size > end) {
      throw new RangeError(`The "${type}" box at byte ${position} has a size that does not fit.`);
    }
    return { type, start: position, headerSize, end: position + size };
  }

  private note(type: string, parent: string, body: ByteView): void {
    const track = this.track;
    // QuickTime has a second `hdlr` in `minf`, naming the data handler: not the media's.
    if (track !== null && type === "hdlr" && parent === "mdia") track.handler = body.fourCc(8);
    if (type === "mvhd") {
      this.movieTimescale = body.u32(body.u8(0) === 1 ? 20 : 12) || 1;
    } else if (track !== null && type === "tkhd") {
      track.id = body.u32(body.u8(0) === 1 ? 20 : 12);
    } else if (track !== null && type === "mdhd") {
      track.timescale = body.u32(body.u8(0) === 1 ? 20 : 12);
    } else if (track !== null && type === "elst") {
      track.edit = firstEdit(body);
    }
  }
}

/** The first edit that shows media, as mediabunny takes it; undefined when none does. */
function firstEdit(body: ByteView): { previous: number; mediaTime: number } | undefined {
  const wide = body.u8(0) === 1;
  const entries = body.u32(4);
  let previous = 0;
  let at = 8;
  for (let i = 0; i < entries; i++) {
    const duration = wide ? body.u64(at) : body.u32(at);
    const mediaTime = wide ? signed64(body, at + 8) : body.i32(at + 4);
    const rate = body.i32(at + (wide ? 16 : 8)) / 0x10000;
    at += wide ? 20 : 12;
    if (mediaTime === -1) {
      previous += duration;
      continue;
    }
    if (rate !== 1) return undefined;
    return { previous, mediaTime };
  }
  return undefined;
}

function signed64(body: ByteView, at: number): number {
  const high = body.u32(at);
  const low = body.u32(at + 4);
  return high >= 0x80000000 ? (high - 0x100000000) * 2 ** 32 + low : high * 2 ** 32 + low;
}

/** A sample table with no entries, keeping its version and flags. */
function emptyTable(type: string, head: Uint8Array): Uint8Array {
  const versionAndFlags = head.subarray(0, 4);
  // stsz: sample size, count; stz2: reserved + field size, count; the rest: entry count.
  const zeros = type === "stsz" || type === "stz2" ? 8 : 4;
  const body = new Uint8Array(4 + zeros);
  body.set(versionAndFlags, 0);
  if (type === "stz2") body[7] = head[7] ?? 16;
  return withHeader(type, [body]);
}

function withHeader(type: string, parts: Uint8Array[]): Uint8Array {
  const size = 8 + parts.reduce((total, part) => total + part.length, 0);
  const box = new Uint8Array(size);
  new DataView(box.buffer).setUint32(0, size);
  for (let i = 0; i < 4; i++) box[4 + i] = type.charCodeAt(i);
  let at = 8;
  for (const part of parts) {
    box.set(part, at);
    at += part.length;
  }
  return box;
}

/** Bytes of one PCM frame of one channel, by mediabunny's codec name; undefined if not PCM. */
export function pcmSampleBytes(codec: string | null): number | undefined {
  if (codec === null || !(PCM_AUDIO_CODECS as readonly string[]).includes(codec)) return undefined;
  if (codec === "ulaw" || codec === "alaw") return 1;
  const bits = /(\d+)/.exec(codec)?.[1];
  return bits === undefined ? undefined : Number(bits) / 8;
}

/** How a PCM track is read: as mediabunny reads it, a chunk is one packet. */
export interface PcmLayout {
  sampleBytes: number;
  channels: number;
}

/**
 * One track's packets, looked up in its sample tables by ranges: timestamps, sizes, offsets
 * and key frames exactly as mediabunny's MP4 reader gives them, but holding a few pages and
 * a checkpoint per 256 table entries instead of the whole table. Presentation order is found
 * near decode order: composition offsets move a sample at most `reorder` places.
 */
export class SampleIndex {
  /** Packets in the track (samples; chunks for PCM audio). */
  readonly count: number;
  private readonly reorder: number;
  /** The least composition offset of any sample (0 for those past the runs). */
  private readonly minOffset: number = 0;
  /** The sample placed last: the next one in its chunk follows it. */
  private lastPlace: { index: number; firstSample: number; offset: number; size: number } | null =
    null;

  private constructor(
    private readonly source: RangeSource,
    private readonly track: TrackTables,
    private readonly stts: RunTable,
    private readonly ctts: RunTable | null,
    private readonly sizes: SampleSizes,
    private readonly chunks: ChunkMap,
    private readonly offsets: EntryTable,
    private readonly keys: EntryTable | null,
    private readonly pcm: PcmLayout | undefined,
  ) {
    this.count = pcm === undefined ? stts.samples : chunks.chunks;
    if (ctts === null) {
      this.reorder = 0;
    } else {
      // Samples past the composition runs are shown at their decode time: an offset of 0.
      const covered = ctts.samples >= stts.samples;
      this.minOffset = covered ? ctts.min : Math.min(ctts.min, 0);
      const spread = (covered ? ctts.max : Math.max(ctts.max, 0)) - this.minOffset;
      // Past `reorder` places in decode order, a later sample is always shown later.
      // Only the decode-time steps between samples bound it: the last sample's duration
      // (often written as 0) separates nothing. With a step of 0 between samples the
      // durations bound nothing, and a sample is taken to move at most MAX_REORDER places.
      const zerosBetween = stts.zeros - (stts.lastValue === 0 ? 1 : 0);
      this.reorder =
        zerosBetween === 0 && Number.isFinite(stts.minPositive)
          ? Math.ceil(spread / stts.minPositive) + 1
          : MAX_REORDER;
    }
  }

  static async open(
    source: RangeSource,
    track: TrackTables,
    pcm?: PcmLayout,
  ): Promise<SampleIndex> {
    const table = async (type: string, width: number, header: number) => {
      const box = track.tables.get(type);
      if (box === undefined) return null;
      const body = box.start + box.headerSize;
      const head = new ByteView(await source.read(body, body + header));
      if (head.length < header) throw new RangeError(`The "${type}" box is cut short.`);
      const count = head.u32(header - 4);
      if (body + header + count * width > box.end) {
        throw new RangeError(`The "${type}" box claims more entries than it holds.`);
      }
      return { head, entries: new EntryTable(source, body + header, count, width) };
    };
    const stts = await table("stts", 8, 8);
    const stsc = await table("stsc", 12, 8);
    const offsets = (await table("stco", 4, 8)) ?? (await table("co64", 8, 8));
    if (stts === null || stsc === null || offsets === null) {
      throw new RangeError(`Track ${track.id} has no complete sample table.`);
    }
    const ctts = await table("ctts", 8, 8);
    const keys = await table("stss", 4, 8);
    const sizes = await SampleSizes.open(source, track);
    const cttsRuns =
      ctts === null || ctts.entries.count === 0 ? null : await RunTable.read(ctts.entries, true);
    // As mediabunny: PCM with composition offsets is read sample by sample, offsets and all.
    return new SampleIndex(
      source,
      track,
      await RunTable.read(stts.entries, false),
      cttsRuns,
      sizes,
      await ChunkMap.read(stsc.entries, offsets.entries.count),
      offsets.entries,
      keys?.entries ?? null,
      cttsRuns === null ? pcm : undefined,
    );
  }

  /** The track's time in its timescale for a time in seconds, as mediabunny maps it. */
  private units(seconds: number): number {
    const value = seconds * this.track.timescale;
    const rounded = Math.round(value);
    const near = Math.abs(value / rounded - 1) < 10 * Number.EPSILON ? rounded : value;
    return near + this.track.editOffset;
  }

  private seconds(units: number): number {
    return (units - this.track.editOffset) / this.track.timescale;
  }

  /** Decode time of sample `sample`; past the last sample, extrapolated by the last run. */
  private async decodeTime(sample: number): Promise<number> {
    const run = await this.stts.runOf(sample);
    if (run === null) return 0;
    return run.sumBefore + (sample - run.first) * run.value;
  }

  /** Presentation time of packet `index`, in the track's timescale. */
  private async presentation(index: number): Promise<number> {
    if (this.pcm !== undefined) {
      const chunk = await this.chunks.chunkAt(index);
      return chunk === null ? 0 : this.decodeTime(chunk.firstSample);
    }
    const decode = await this.decodeTime(index);
    if (this.ctts === null) return decode;
    const run = await this.ctts.runOf(index);
    return run !== null && index < run.first + run.count ? decode + run.value : decode;
  }

  async isKey(index: number): Promise<boolean> {
    const keys = this.keys;
    if (keys === null || index === 0) return true;
    const entry = await this.keyEntryAtOrBefore(index);
    return entry >= 0 && (await keys.u32(entry)) - 1 === index;
  }

  /** Presentation times of packets [from, to), clamped to the track, walking the runs once. */
  private async presentations(from: number, to: number): Promise<Map<number, number>> {
    const times = new Map<number, number>();
    const first = Math.max(0, from);
    const count = Math.min(to, this.count) - first;
    if (count <= 0) return times;
    if (this.pcm !== undefined) {
      for (let i = first; i < first + count; i++) times.set(i, await this.presentation(i));
      return times;
    }
    const decode = await this.stts.valuesFrom(first, count);
    const offsets = this.ctts === null ? null : await this.ctts.valuesFrom(first, count);
    for (let i = 0; i < count; i++) {
      times.set(first + i, (decode.sums[i] ?? 0) + (offsets?.values[i] ?? 0));
    }
    return times;
  }

  /** The packet shown last at or before `seconds` (mediabunny's `getPacket`); -1 if none. */
  async indexAt(seconds: number): Promise<number> {
    const units = seconds === Number.POSITIVE_INFINITY ? seconds : this.units(seconds);
    if (this.count === 0) return -1;
    if (this.ctts === null) {
      if (this.pcm !== undefined) return this.chunkAtTime(units);
      const run = await this.stts.runAtSum(units);
      if (run === null) return -1;
      const within =
        run.value > 0 && units !== Number.POSITIVE_INFINITY
          ? Math.floor((units - run.sumBefore) / run.value)
          : run.count - 1;
      return run.first + Math.min(within, run.count - 1);
    }
    // Candidates decode no later than the last sample whose decode time allows it.
    const last = await this.lastDecodedBy(units - this.minOffset);
    if (last < 0) return -1;
    const times = await this.presentations(last - 2 * this.reorder - 2, last + 1);
    let best = -1;
    let bestTime = Number.NEGATIVE_INFINITY;
    for (const [index, time] of times) {
      if (time <= units && time >= bestTime) {
        best = index;
        bestTime = time;
      }
    }
    return best;
  }

  /** The last key packet shown at or before `seconds` (`getKeyPacket`); -1 if none. */
  async keyIndexAt(seconds: number): Promise<number> {
    const shown = await this.indexAt(seconds);
    if (shown < 0 || this.keys === null) return shown;
    if (this.ctts === null) return this.keyAtOrBefore(shown);
    const units = seconds === Number.POSITIVE_INFINITY ? seconds : this.units(seconds);
    // Walk key samples back from near the shown one, keeping the latest shown by `units`.
    let key = await this.keyAtOrBefore(Math.min(this.count - 1, shown + 2 * this.reorder + 2));
    let best = -1;
    let bestTime = Number.NEGATIVE_INFINITY;
    while (key >= 0) {
      const time = await this.presentation(key);
      if (time <= units && time >= bestTime && (time > bestTime || key > best)) {
        best = key;
        bestTime = time;
      }
      if (best >= 0 && key < best - 2 * this.reorder - 2) break;
      key = key === 0 ? -1 : await this.keyAtOrBefore(key - 1);
    }
    return best;
  }

  /** The next key packet after packet `index` in decode order; -1 if none. */
  async nextKeyIndex(index: number): Promise<number> {
    const keys = this.keys;
    if (keys === null) return index + 1 < this.count ? index + 1 : -1;
    const entry = (await this.keyEntryAtOrBefore(index)) + 1;
    if (entry >= keys.count) return -1;
    const next = (await keys.u32(entry)) - 1;
    return next < this.count ? next : -1;
  }

  /** The packet at `index` in decode order, with its data unless `metadataOnly`. */
  async packet(
    index: number,
    options: { metadataOnly?: boolean } = {},
  ): Promise<EncodedPacket | null> {
    if (index < 0 || index >= this.count) return null;
    const place = await this.place(index);
    if (place === null) return null;
    let data: Uint8Array = new Uint8Array(0);
    if (!options.metadataOnly) {
      data = await this.source.read(place.offset, place.offset + place.size);
      if (data.length < place.size) return null;
    }
    return this.made(index, data, place.size);
  }

  private async made(index: number, data: Uint8Array, size: number): Promise<EncodedPacket> {
    const time = await this.presentation(index);
    return new EncodedPacket(
      data,
      (await this.isKey(index)) ? "key" : "delta",
      this.seconds(time),
      (await this.duration(index, time)) / this.track.timescale,
      index,
      size,
    );
  }

  /**
   * Packets in decode order from `from`. Their bytes are read a stretch at a time: packets
   * that lie next to each other in the file (a chunk) come in one read, not one read each.
   */
  async *packets(
    from: number,
    options: { metadataOnly?: boolean } = {},
  ): AsyncGenerator<EncodedPacket> {
    let next = Math.max(0, from);
    // Reads grow as the caller keeps taking packets: a cut of a few frames reads a few.
    let most = FIRST_RUN_PACKETS;
    while (next < this.count) {
      const run: { index: number; offset: number; size: number }[] = [];
      let end = -1;
      while (next < this.count && run.length < most) {
        const place = await this.place(next);
        if (place === null) break;
        const start = run[0]?.offset ?? place.offset;
        if (end >= 0 && place.offset !== end) break;
        if (run.length > 0 && place.offset + place.size - start > MAX_RUN_BYTES) break;
        run.push({ index: next, ...place });
        end = place.offset + place.size;
        next++;
      }
      const first = run[0];
      if (first === undefined) return;
      const bytes = options.metadataOnly
        ? new Uint8Array(0)
        : await this.source.read(first.offset, end);
      if (bytes.length < end - first.offset && !options.metadataOnly) return;
      most = Math.min(most * 2, MAX_RUN_PACKETS);
      for (const { index, offset, size } of run) {
        const data = options.metadataOnly
          ? bytes
          : bytes.subarray(offset - first.offset, offset - first.offset + size);
        yield await this.made(index, data, size);
      }
    }
  }

  /**
   * The end of the track: the last packet shown plus its duration, in seconds, rounded to the
   * timescale as mediabunny's `computeDuration` rounds it.
   */
  async end(): Promise<number> {
    return Math.round((await this.endTime()) * this.track.timescale) / this.track.timescale;
  }

  /** The end of the last packet shown, in seconds; 0 for an empty track. */
  async endTime(): Promise<number> {
    const last = await this.packet(await this.indexAt(Number.POSITIVE_INFINITY), {
      metadataOnly: true,
    });
    return (last?.timestamp ?? 0) + (last?.duration ?? 0);
  }

  /** When the first packet shown starts, in seconds; 0 for an empty track. */
  async startTime(): Promise<number> {
    if (this.count === 0) return 0;
    const times = await this.presentations(0, 2 * this.reorder + 3);
    return this.seconds(Math.min(...times.values()));
  }

  /** The presentation time of every key packet, in seconds, in decode order. */
  async *keyTimes(): AsyncGenerator<number> {
    const keys = this.keys;
    if (keys === null) {
      for (let index = 0; index < this.count; index++) {
        yield this.seconds(await this.presentation(index));
      }
      return;
    }
    // mediabunny counts the first sample a key sample whether or not the table lists it.
    if ((keys.count === 0 || (await keys.u32(0)) !== 1) && this.count > 0) {
      yield this.seconds(await this.presentation(0));
    }
    for (let entry = 0; entry < keys.count; entry++) {
      const index = (await keys.u32(entry)) - 1;
      if (index >= 0 && index < this.count) yield this.seconds(await this.presentation(index));
    }
  }

  /** Where packet `index`'s bytes lie in the file. */
  private async place(index: number): Promise<{ offset: number; size: number } | null> {
    if (this.pcm !== undefined) {
      const chunk = await this.chunks.chunkAt(index);
      if (chunk === null) return null;
      const size = chunk.samplesPerChunk * this.pcm.sampleBytes * this.pcm.channels;
      return { offset: await this.chunkOffset(index), size };
    }
    const chunk = await this.chunks.chunkOf(index);
    if (chunk === null) return null;
    const last = this.lastPlace;
    let offset: number;
    if (last !== null && last.index === index - 1 && last.firstSample === chunk.firstSample) {
      // The next sample of the same chunk starts where the one before ended.
      offset = last.offset + last.size;
    } else {
      offset = await this.chunkOffset(chunk.chunk);
      for (let sample = chunk.firstSample; sample < index; sample++) {
        offset += await this.sizes.of(sample);
      }
    }
    const size = await this.sizes.of(index);
    this.lastPlace = { index, firstSample: chunk.firstSample, offset, size };
    return { offset, size };
  }

  private async chunkOffset(chunk: number): Promise<number> {
    const { view, at } = await this.offsets.entry(chunk);
    return this.offsets.width === 8 ? view.u64(at) : view.u32(at);
  }

  /** Time to the next packet shown (mediabunny's packet duration), in the timescale. */
  private async duration(index: number, time: number): Promise<number> {
    if (this.pcm !== undefined) {
      const chunk = await this.chunks.chunkAt(index);
      if (chunk === null) return 0;
      return (await this.decodeTime(chunk.firstSample + chunk.samplesPerChunk)) - time;
    }
    const run = await this.stts.runOf(index);
    const delta = run?.value ?? 0;
    if (this.ctts === null) return delta;
    const span = 2 * this.reorder + 2;
    const times = await this.presentations(index - span, index + span + 1);
    let next = Number.POSITIVE_INFINITY;
    for (const [other, when] of times) {
      // Ties keep decode order, as a stable sort by presentation time does.
      const later = when > time || (when === time && other > index);
      if (later && when < next) next = when;
    }
    return next === Number.POSITIVE_INFINITY ? delta : next - time;
  }

  /** The last sample whose decode time is at most `units`; -1 if none. */
  private async lastDecodedBy(units: number): Promise<number> {
    const run = await this.stts.runAtSum(units);
    if (run === null) return -1;
    if (units === Number.POSITIVE_INFINITY || run.value === 0) return run.first + run.count - 1;
    return run.first + Math.min(Math.floor((units - run.sumBefore) / run.value), run.count - 1);
  }

  /** PCM: the last chunk whose first sample decodes at or before `units`. */
  private async chunkAtTime(units: number): Promise<number> {
    const sample = await this.lastDecodedBy(units);
    if (sample < 0) return -1;
    const chunk = await this.chunks.chunkOf(sample);
    return chunk === null ? this.count - 1 : Math.min(chunk.chunk, this.count - 1);
  }

  /** The last key sample at or before sample `index`. */
  private async keyAtOrBefore(index: number): Promise<number> {
    const keys = this.keys;
    if (keys === null) return index;
    const entry = await this.keyEntryAtOrBefore(index);
    return entry < 0 ? 0 : Math.min((await keys.u32(entry)) - 1, index);
  }

  /** The last entry of the key-sample table (1-based, ascending) at or before `index`; -1 if none. */
  private async keyEntryAtOrBefore(index: number): Promise<number> {
    const keys = this.keys;
    if (keys === null) return -1;
    let low = 0;
    let high = keys.count - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if ((await keys.u32(middle)) - 1 <= index) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found;
  }
}

/** Packets read in one piece: first this many, doubling up to the most, and this many bytes. */
const FIRST_RUN_PACKETS = 8;
const MAX_RUN_PACKETS = 256;
const MAX_RUN_BYTES = 1024 * 1024;

/** A reorder past this many places is not found by lookups near decode order. */
const MAX_REORDER = 64;

/** Sample sizes (`stsz` or `stz2`), one constant or read by pages. */
class SampleSizes {
  private constructor(
    private readonly constant: number,
    private readonly table: EntryTable | null,
    private readonly bits: number,
  ) {}

  static async open(source: RangeSource, track: TrackTables): Promise<SampleSizes> {
    const stsz = track.tables.get("stsz");
    const stz2 = track.tables.get("stz2");
    const box = stsz ?? stz2;
    if (box === undefined) throw new RangeError(`Track ${track.id} has no sample sizes.`);
    const body = box.start + box.headerSize;
    const head = new ByteView(await source.read(body, body + 12));
    if (head.length < 12) throw new RangeError("The sample size box is cut short.");
    const count = head.u32(8);
    if (stsz !== undefined) {
      const constant = head.u32(4);
      if (constant !== 0) return new SampleSizes(constant, null, 32);
      if (body + 12 + count * 4 > box.end)
        throw new RangeError("The sample size box is cut short.");
      return new SampleSizes(0, new EntryTable(source, body + 12, count, 4), 32);
    }
    const bits = head.u8(7);
    if (bits !== 4 && bits !== 8 && bits !== 16) {
      throw new RangeError(`The compact sample size box has ${bits}-bit fields.`);
    }
    const bytes = Math.ceil((count * bits) / 8);
    if (body + 12 + bytes > box.end) throw new RangeError("The sample size box is cut short.");
    // Compact fields are read a byte (or two) at a time: entries of one byte, two for 16 bits.
    const width = bits === 16 ? 2 : 1;
    return new SampleSizes(0, new EntryTable(source, body + 12, bytes / width, width), bits);
  }

  async of(sample: number): Promise<number> {
    const table = this.table;
    if (table === null) return this.constant;
    if (this.bits === 32) {
      return table.u32(Math.min(sample, table.count - 1));
    }
    if (this.bits === 16) {
      const { view, at } = await table.entry(Math.min(sample, table.count - 1));
      return view.u16(at);
    }
    if (this.bits === 8) {
      const { view, at } = await table.entry(Math.min(sample, table.count - 1));
      return view.u8(at);
    }
    const { view, at } = await table.entry(Math.min(sample >> 1, table.count - 1));
    const byte = view.u8(at);
    return sample % 2 === 0 ? byte >> 4 : byte & 0x0f;
  }
}
