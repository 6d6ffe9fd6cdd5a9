import type { RangeSource, TextTrack } from "../domain/media";
import { childBoxes, findBox } from "./bmff-boxes";
import { corruptMedia } from "./errors";
import { ByteView } from "./range-reader";
import { readCoalesced } from "./ranges";

/** Handler types of timed text tracks: 3GPP/MP4 (`text`, `sbtl`) and ISO subtitles (`subt`). */
const TEXT_HANDLERS = new Set(["text", "sbtl", "subt"]);
/**
 * Sample entries of timed text: a 16-bit length and the text (`tx3g`, `text`: 3GPP TS 26.245,
 * QuickTime), or WebVTT cue boxes (`wvtt`: ISO/IEC 14496-30).
 */
const TEXT_SAMPLE_ENTRIES = new Set(["tx3g", "text", "wvtt"]);

interface TextSample {
  offset: number;
  size: number;
  start: number;
  end: number;
}

/** A text sample of one of the movie's text tracks. */
interface TrackSample extends TextSample {
  track: number;
}

/**
 * The mov_text/tx3g and WebVTT tracks of a movie with their cues. The sample tables in `moov`
 * say where each cue's few bytes lie inside `mdat`; only those ranges are read, all tracks'
 * together, in a bounded number of reads (`readCoalesced`).
 */
export async function readMp4TextTracks(
  source: RangeSource,
  moov: Uint8Array,
): Promise<TextTrack[]> {
  const movieTimescale = readMovieTimescale(moov);
  const fragmented = findBox(moov, ["mvex"]) !== undefined;
  const tracks: (TextTrack & { decode: (bytes: Uint8Array) => string })[] = [];
  const samples: TrackSample[] = [];
  for (const trak of childBoxes(moov).filter((box) => box.type === "trak")) {
    const mdia = findBox(trak.body, ["mdia"]);
    const hdlr = mdia && findBox(mdia.body, ["hdlr"]);
    const stbl = mdia && findBox(mdia.body, ["minf", "stbl"]);
    const mdhd = mdia && findBox(mdia.body, ["mdhd"]);
    if (!hdlr || !stbl || !mdhd || hdlr.body.length < 12) continue;
    if (!TEXT_HANDLERS.has(new ByteView(hdlr.body).fourCc(8))) continue;
    const stsd = findBox(stbl.body, ["stsd"]);
    if (!stsd || stsd.body.length < 16) continue;
    const codec = new ByteView(stsd.body).fourCc(12);
    if (!TEXT_SAMPLE_ENTRIES.has(codec)) continue;

    // Fragmented files keep samples in `moof` boxes this reader does not walk; a track whose
    // cues cannot be read is left out rather than reported empty.
    if (fragmented && sampleCount(stbl.body) === 0) continue;

    const media = readMediaHeader(mdhd.body);
    const shift = readEditShift(trak.body, movieTimescale, media.timescale);
    const track = tracks.length;
    for (const sample of readSampleTable(stbl.body, media.timescale, shift)) {
      // A 2-byte sample is an empty cue: the gaps between captions.
      if (sample.size > 2) samples.push({ ...sample, track });
    }
    const name = readTrackName(trak.body, hdlr.body);
    tracks.push({
      index: track,
      codec,
      ...(media.language === undefined ? {} : { language: media.language }),
      ...(name === undefined ? {} : { name }),
      cues: [],
      decode: codec === "wvtt" ? decodeWebVttSample : decodeTextSample,
    });
  }
  await readCoalesced(source, samples, (sample, bytes) => {
    const track = tracks[sample.track];
    const text = track?.decode(bytes) ?? "";
    if (text !== "") track?.cues.push({ start: sample.start, end: sample.end, text });
  });
  return tracks.map(({ decode: _, cues, ...track }) => ({
    ...track,
    cues: cues.sort((a, b) => a.start - b.start),
  }));
}

function readMovieTimescale(moov: Uint8Array): number {
  const mvhd = findBox(moov, ["mvhd"]);
  if (!mvhd || mvhd.body.length < 24) throw corruptMedia("The movie header has no mvhd box.");
  const view = new ByteView(mvhd.body);
  return view.u32(view.u8(0) === 1 ? 20 : 12);
}

function readMediaHeader(body: Uint8Array): { timescale: number; language?: string } {
  const view = new ByteView(body);
  const v1 = view.u8(0) === 1;
  const timescale = view.u32(v1 ? 20 : 12);
  const packed = view.u16(v1 ? 32 : 20);
  if (timescale === 0) throw corruptMedia("A track's media header has a zero timescale.");
  // Below 0x400 the value is a Macintosh language code, which says nothing reliable.
  if (packed < 0x400) return { timescale };
  const language = String.fromCharCode(
    ((packed >> 10) & 31) + 0x60,
    ((packed >> 5) & 31) + 0x60,
    (packed & 31) + 0x60,
  );
  // QuickTime writes 0x7FFF for "unspecified", which decodes to no letters at all.
  return /^[a-z]{3}$/.test(language) && language !== "und"
    ? { timescale, language }
    : { timescale };
}

/**
 * Seconds to add to media times, from the edit list: leading empty edits delay the track,
 * and the first real edit's media time says where presentation starts.
 */
function readEditShift(trak: Uint8Array, movieTimescale: number, mediaTimescale: number): number {
  const elst = findBox(trak, ["edts", "elst"]);
  if (!elst || elst.body.length < 8) return 0;
  const view = new ByteView(elst.body);
  const v1 = view.u8(0) === 1;
  const entrySize = v1 ? 20 : 12;
  let delay = 0;
  for (let i = 0; i < view.u32(4); i++) {
    const at = 8 + i * entrySize;
    if (at + entrySize > view.length) break;
    const duration = v1 ? view.u64(at) : view.u32(at);
    const mediaTime = v1 ? view.i32(at + 8) * 2 ** 32 + view.u32(at + 12) : view.i32(at + 4);
    if (mediaTime === -1) {
      delay += duration / movieTimescale;
      continue;
    }
    return delay - mediaTime / mediaTimescale;
  }
  return delay;
}

function readSampleTable(stbl: Uint8Array, timescale: number, shift: number): TextSample[] {
  const sizes = readSampleSizes(stbl);
  const offsets = readSampleOffsets(stbl, sizes);
  const stts = findBox(stbl, ["stts"]);
  if (!stts) throw corruptMedia("A text track has no time-to-sample table.");
  const view = new ByteView(stts.body);
  const samples: TextSample[] = [];
  let ticks = 0;
  for (let entry = 0; entry < view.u32(4) && 16 + entry * 8 <= view.length; entry++) {
    const count = view.u32(8 + entry * 8);
    const delta = view.u32(12 + entry * 8);
    // A sample the chunk tables do not place is dropped rather than read from a guessed offset.
    for (let i = 0; i < count && samples.length < offsets.length; i++) {
      const index = samples.length;
      samples.push({
        offset: offsets[index] ?? 0,
        size: sizes[index] ?? 0,
        start: toSeconds(ticks / timescale + shift),
        end: toSeconds((ticks + delta) / timescale + shift),
      });
      ticks += delta;
    }
  }
  return samples;
}

function sampleCount(stbl: Uint8Array): number {
  const stsz = findBox(stbl, ["stsz"]);
  return stsz && stsz.body.length >= 12 ? new ByteView(stsz.body).u32(8) : 0;
}

function readSampleSizes(stbl: Uint8Array): number[] {
  const stsz = findBox(stbl, ["stsz"]);
  if (!stsz || stsz.body.length < 12) throw corruptMedia("A text track has no sample sizes.");
  const view = new ByteView(stsz.body);
  const uniform = view.u32(4);
  const count = view.u32(8);
  if (uniform !== 0) return new Array<number>(count).fill(uniform);
  if (12 + count * 4 > view.length) throw corruptMedia("A text track's sample sizes are cut.");
  return Array.from({ length: count }, (_, i) => view.u32(12 + i * 4));
}

/** File offsets of every sample, from the chunk offsets and the sample-to-chunk runs. */
function readSampleOffsets(stbl: Uint8Array, sizes: number[]): number[] {
  const co64 = findBox(stbl, ["co64"]);
  const stco = co64 ?? findBox(stbl, ["stco"]);
  const stsc = findBox(stbl, ["stsc"]);
  if (!stco || !stsc) throw corruptMedia("A text track has no chunk offsets.");
  const chunks = new ByteView(stco.body);
  const chunkCount = Math.min(chunks.u32(4), Math.floor((chunks.length - 8) / (co64 ? 8 : 4)));
  const chunkOffset = (chunk: number) =>
    co64 ? chunks.u64(8 + chunk * 8) : chunks.u32(8 + chunk * 4);
  const runs = new ByteView(stsc.body);
  const runCount = Math.min(runs.u32(4), Math.floor((runs.length - 8) / 12));
  const offsets: number[] = [];
  for (let run = 0; run < runCount; run++) {
    const firstChunk = runs.u32(8 + run * 12) - 1;
    const perChunk = runs.u32(12 + run * 12);
    const nextFirst = run + 1 < runCount ? runs.u32(8 + (run + 1) * 12) - 1 : chunkCount;
    for (let chunk = firstChunk; chunk < Math.min(nextFirst, chunkCount); chunk++) {
      let offset = chunkOffset(chunk);
      for (let i = 0; i < perChunk && offsets.length < sizes.length; i++) {
        offsets.push(offset);
        offset += sizes[offsets.length - 1] ?? 0;
      }
    }
  }
  return offsets;
}

/** A tx3g sample: a 16-bit byte length, then UTF-8 (or BOM-marked UTF-16) text, then styles. */
function decodeTextSample(bytes: Uint8Array): string {
  if (bytes.length < 2) return "";
  const length = new ByteView(bytes).u16(0);
  const text = bytes.subarray(2, 2 + length);
  const decoded =
    text[0] === 0xfe && text[1] === 0xff
      ? decodeUtf16be(text.subarray(2))
      : new TextDecoder().decode(text);
  return decoded.replace(/\r\n?/g, "\n").trim();
}

/**
 * A WebVTT sample: one `vttc` box per cue shown (its text in a `payl` child), or an empty
 * `vtte` box between cues. Cues shown at once are one line each.
 */
function decodeWebVttSample(bytes: Uint8Array): string {
  let boxes: ReturnType<typeof childBoxes>;
  try {
    boxes = childBoxes(bytes);
  } catch {
    return "";
  }
  return boxes
    .filter((box) => box.type === "vttc")
    .flatMap((cue) => childBoxes(cue.body).filter((box) => box.type === "payl"))
    .map((payl) => new TextDecoder().decode(payl.body).replace(/\r\n?/g, "\n").trim())
    .filter((text) => text !== "")
    .join("\n");
}

function decodeUtf16be(bytes: Uint8Array): string {
  const view = new ByteView(bytes);
  const units: number[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) units.push(view.u16(i));
  return String.fromCharCode(...units);
}

/** The track's own name (`udta/name`), else its handler name unless it is a muxer default. */
function readTrackName(trak: Uint8Array, hdlr: Uint8Array): string | undefined {
  const named = findBox(trak, ["udta", "name"]);
  if (named) return new TextDecoder().decode(named.body).replace(/\0+$/, "").trim() || undefined;
  let name = hdlr.subarray(24);
  // QuickTime writes a Pascal string (length byte first), ISO a NUL-terminated one.
  if (name.length > 0 && name[0] === name.length - 1) name = name.subarray(1);
  const text = new TextDecoder().decode(name).replace(/\0+$/, "").trim();
  return text === "" || /handler$/i.test(text) || text.startsWith("Core Media") ? undefined : text;
}

/** Rounds to microseconds, so ticks like 1/3 s do not print as 0.33333333333333337. */
function toSeconds(seconds: number): number {
  return Math.round(Math.max(0, seconds) * 1e6) / 1e6;
}
