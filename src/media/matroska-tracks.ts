import { childElements, Id, readString, readUint } from "./ebml";
import type { SubtitleCodec } from "./subtitle-text";

/** A Matroska subtitle track whose cues can be read as text. */
export interface SubtitleTrackEntry {
  number: number;
  codec: SubtitleCodec;
  language?: string;
  name?: string;
  /** Nanoseconds per frame when the track declares one; ends cues that carry no duration. */
  defaultDuration?: number;
  /** Undoes the track's content compression on each block (zlib or header stripping). */
  decode: (payload: Uint8Array) => Promise<Uint8Array>;
}

/** Segment Info: the timestamp unit in nanoseconds and the segment title. */
export interface SegmentInfo {
  timestampScale: number;
  title?: string;
}

const CODECS: Record<string, SubtitleCodec> = {
  "S_TEXT/UTF8": "srt",
  "S_TEXT/ASCII": "srt",
  "S_TEXT/ASS": "ass",
  "S_TEXT/SSA": "ssa",
  "S_TEXT/WEBVTT": "webvtt",
  // WebM's own WebVTT mapping; D_WEBVTT/METADATA holds no text meant for people.
  "D_WEBVTT/SUBTITLES": "webvtt",
  "D_WEBVTT/CAPTIONS": "webvtt",
  "D_WEBVTT/DESCRIPTIONS": "webvtt",
};

/** Parses Segment Info. */
export function parseInfo(data: Uint8Array): SegmentInfo {
  const info: SegmentInfo = { timestampScale: 1_000_000 };
  for (const element of childElements(data)) {
    if (element.id === Id.TimestampScale) info.timestampScale = readUint(element.data) || 1_000_000;
    if (element.id === Id.Title) {
      const title = readString(element.data).trim();
      if (title !== "") info.title = title;
    }
  }
  return info;
}

/** Parses a SeekHead into segment-relative positions by element ID. */
export function parseSeekHead(data: Uint8Array): Map<number, number> {
  const positions = new Map<number, number>();
  for (const seek of childElements(data).filter((element) => element.id === Id.Seek)) {
    const fields = childElements(seek.data);
    const id = fields.find((field) => field.id === Id.SeekId);
    const position = fields.find((field) => field.id === Id.SeekPosition);
    if (id && position && !positions.has(readUint(id.data))) {
      positions.set(readUint(id.data), readUint(position.data));
    }
  }
  return positions;
}

/** The subtitle tracks of a Tracks element that this service can read, in file order. */
export function parseSubtitleTracks(data: Uint8Array): SubtitleTrackEntry[] {
  const tracks: SubtitleTrackEntry[] = [];
  for (const entry of childElements(data).filter((element) => element.id === Id.TrackEntry)) {
    const fields = childElements(entry.data);
    const field = (id: number) => fields.find((element) => element.id === id)?.data;
    const numberField = field(Id.TrackNumber);
    const codecId = field(Id.CodecId);
    const codec = codecId && CODECS[readString(codecId)];
    if (numberField === undefined || codec === undefined) continue;
    const decode = contentDecoder(field(Id.ContentEncodings));
    if (decode === null) continue;
    const iso639 = field(Id.Language);
    const bcp47 = field(Id.LanguageBcp47);
    // ISO 639-2 first, as MP4 reports it. Matroska's default language is "eng": a track that
    // names none is English by the spec, not by a guess.
    const language = iso639 ? readString(iso639) : bcp47 ? readString(bcp47) : "eng";
    const name = field(Id.Name);
    const defaultDuration = field(Id.DefaultDuration);
    tracks.push({
      number: readUint(numberField),
      codec,
      ...(language !== "und" && language !== "" ? { language } : {}),
      ...(name && readString(name).trim() !== "" ? { name: readString(name).trim() } : {}),
      ...(defaultDuration ? { defaultDuration: readUint(defaultDuration) } : {}),
      decode,
    });
  }
  return tracks;
}

/** Every track's DefaultDuration in nanoseconds (undefined when it declares none), by number. */
export function parseDefaultDurations(data: Uint8Array): Map<number, number | undefined> {
  const durations = new Map<number, number | undefined>();
  for (const entry of childElements(data).filter((element) => element.id === Id.TrackEntry)) {
    const fields = childElements(entry.data);
    const numberField = fields.find((element) => element.id === Id.TrackNumber);
    const duration = fields.find((element) => element.id === Id.DefaultDuration);
    if (numberField === undefined) continue;
    durations.set(readUint(numberField.data), duration ? readUint(duration.data) : undefined);
  }
  return durations;
}

/**
 * How to undo a track's ContentEncodings, or null when they cannot be undone here
 * (encryption, or compression other than zlib and header stripping).
 */
function contentDecoder(
  encodings: Uint8Array | undefined,
): ((payload: Uint8Array) => Promise<Uint8Array>) | null {
  const identity = async (payload: Uint8Array) => payload;
  if (encodings === undefined) return identity;
  const [only, ...more] = childElements(encodings).filter(
    (element) => element.id === Id.ContentEncoding,
  );
  if (only === undefined) return identity;
  if (more.length > 0) return null;
  const parts = childElements(only.data);
  if (parts.some((part) => part.id === Id.ContentEncryption)) return null;
  const compression = parts.find((part) => part.id === Id.ContentCompression);
  if (compression === undefined) return identity;
  const settings = childElements(compression.data);
  const algo = settings.find((setting) => setting.id === Id.ContentCompAlgo);
  const algorithm = algo ? readUint(algo.data) : 0;
  if (algorithm === 0) return inflate;
  if (algorithm === 3) {
    const stripped = settings.find((setting) => setting.id === Id.ContentCompSettings)?.data;
    return async (payload) => concat(stripped ?? new Uint8Array(0), payload);
  }
  return null;
}

async function inflate(payload: Uint8Array): Promise<Uint8Array> {
  // A payload is a view of a read's own buffer, never of shared memory (as the DOM lib asks).
  const stream = new Blob([payload as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
