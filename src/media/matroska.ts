import type { RangeSource, TextCue, TextTrack } from "../domain/media";
import { type ClusterIndex, ClusterIndexBuilder, MAX_CUE_TRACKS } from "./cluster-index";
import { childElements, type ElementHeader, Id, readHeader, readString, readUint } from "./ebml";
import { corruptMedia, unsupportedMedia } from "./errors";
import { type ClusterWalk, type RawCue, scanCluster } from "./matroska-clusters";
import { TrackTimeline, type TrackTotals } from "./matroska-frames";
import {
  parseDefaultDurations,
  parseInfo,
  parseSeekHead,
  parseSubtitleTracks,
  type SegmentInfo,
  type SubtitleTrackEntry,
} from "./matroska-tracks";
import { RangeReader } from "./range-reader";
import { sequentialWindowBytes } from "./read-budget";
import { type ByteReader, StreamReader } from "./stream-reader";
import { cueText } from "./subtitle-text";

/** What a Matroska file's header elements say, before its Clusters. */
export interface MatroskaHeader {
  docType: "webm" | "matroska";
  /** The Segment Info title. */
  title?: string;
  timestampScale: number;
  subtitles: SubtitleTrackEntry[];
  /** Every track's DefaultDuration in nanoseconds, by track number. */
  defaultDurations: Map<number, number | undefined>;
  /** Where the first Cluster starts, if there is one. */
  firstCluster?: number;
  segmentEnd: number;
  /** Where the Segment element and its data start, and its size (null when unknown). */
  segment: { start: number; dataStart: number; size: number | null };
  /** Whether mediabunny finds Cues: before the first Cluster or through the SeekHead. */
  hasCues: boolean;
  /** The furthest Segment-relative position a SeekHead before the Clusters points at. */
  lastSeekPosition: number;
}

/** What one walk of the Clusters measures. */
export interface MatroskaWalk {
  textTracks: TextTrack[];
  /** Where each Cluster starts, for a file mediabunny cannot seek (no Cues, see `indexable`). */
  clusterIndex: ClusterIndex | null;
  /** Packet totals of each measured track (undefined for a track without blocks). */
  totals: Map<number, TrackTotals | undefined>;
}

/** Header elements (Info, Tracks, SeekHead) larger than this are garbled sizes, not data. */
const MAX_HEADER_ELEMENT_BYTES = 16 * 1024 * 1024;

/** A reader for a Matroska file's header elements: small windows, growing while read in order. */
export function matroskaReader(source: RangeSource): RangeReader {
  return new RangeReader(source, undefined, sequentialWindowBytes(source.size));
}

/**
 * A reader for the walk of the Clusters: one streamed read a stretch of `size / 256` (at most
 * 256 reads, 320 at 10 GiB), a piece of it held at a time whatever the stretch's size. A
 * source that cannot stream (bytes in memory) is walked through growing windows instead.
 */
export function clusterWalkReader(source: RangeSource): ByteReader & { close?(): Promise<void> } {
  return source.stream
    ? new StreamReader(source, sequentialWindowBytes(source.size))
    : matroskaReader(source);
}

/**
 * Reads the EBML header and the Segment's header elements (SeekHead, Info, Tracks) up to the
 * first Cluster; Info and Tracks placed after the Clusters are found through the SeekHead.
 */
export async function readMatroskaHeader(reader: RangeReader): Promise<MatroskaHeader> {
  const { docType, end: headerEnd } = await readEbmlHeader(reader);
  const segment = await readHeader(reader, headerEnd);
  if (segment === null || segment.id !== Id.Segment) {
    throw corruptMedia("The Matroska file has no Segment after its EBML header.");
  }
  const segmentEnd = segment.size === null ? reader.size : segment.dataStart + segment.size;
  if (segmentEnd > reader.size) {
    throw corruptMedia(
      `The Matroska segment ends at byte ${segmentEnd} but the file has ${reader.size} bytes.`,
    );
  }

  let info: SegmentInfo | undefined;
  let tracks: Uint8Array | undefined;
  let seek = new Map<number, number>();
  const readHeaderElement = async (header: ElementHeader) =>
    header.size !== null && header.size <= MAX_HEADER_ELEMENT_BYTES
      ? reader.bytes(header.dataStart, header.size)
      : new Uint8Array(0);
  const viaSeekHead = async (id: number) => {
    const position = seek.get(id);
    if (position === undefined) return undefined;
    const header = await readHeader(reader, segment.dataStart + position);
    return header?.id === id ? readHeaderElement(header) : undefined;
  };

  let firstCluster: number | undefined;
  let hasCues = false;
  let lastSeekPosition = 0;
  for (let position = segment.dataStart; position < segmentEnd; ) {
    const header = await readHeader(reader, position);
    if (header === null) break;
    if (header.id === Id.Cluster) {
      firstCluster = position;
      break;
    }
    if (header.size === null) break;
    if (header.id === Id.Cues) hasCues = true;
    if (header.id === Id.SeekHead) {
      const data = await readHeaderElement(header);
      seek = parseSeekHead(data);
      lastSeekPosition = Math.max(lastSeekPosition, ...seekPositions(data));
      hasCues ||= seek.has(Id.Cues);
    }
    // Copies: the window they were read through moves on.
    if (header.id === Id.Info) info = parseInfo(await readHeaderElement(header));
    if (header.id === Id.Tracks) tracks = (await readHeaderElement(header)).slice();
    position = header.dataStart + header.size;
  }
  tracks ??= (await viaSeekHead(Id.Tracks))?.slice();
  if (tracks === undefined) throw corruptMedia("The Matroska file has no track list.");
  info ??= parseInfo((await viaSeekHead(Id.Info)) ?? new Uint8Array(0));
  return {
    docType,
    ...(info.title === undefined ? {} : { title: info.title }),
    timestampScale: info.timestampScale,
    subtitles: parseSubtitleTracks(tracks),
    defaultDurations: parseDefaultDurations(tracks),
    ...(firstCluster === undefined ? {} : { firstCluster }),
    segmentEnd,
    segment: { start: headerEnd, dataStart: segment.dataStart, size: segment.size },
    hasCues,
    lastSeekPosition,
  };
}

/**
 * Walks every Cluster once, front to back, by element headers: times the blocks of
 * `trackNumbers` (key frames of `videoTrack`) and reads the subtitle blocks. Only subtitle
 * payloads are kept, and the reads only go forward, so a streaming reader serves it.
 */
export async function walkMatroska(
  reader: ByteReader,
  header: MatroskaHeader,
  trackNumbers: number[],
  videoTrack: number,
): Promise<MatroskaWalk> {
  const factor = 1e9 / header.timestampScale;
  const timelines = new Map(
    trackNumbers.map((number) => [
      number,
      new TrackTimeline(factor, header.defaultDurations.get(number), number === videoTrack),
    ]),
  );
  const indexed = indexable(header);
  const walk: ClusterWalk = {
    subtitles: header.subtitles,
    timelines,
    cues: [],
    ...(indexed ? { clusters: new ClusterIndexBuilder(videoTrack) } : {}),
  };
  let position = header.firstCluster ?? header.segmentEnd;
  while (position < header.segmentEnd) {
    const element = await readHeader(reader, position);
    if (element === null) break;
    if (element.id === Id.Cluster) {
      position = await scanCluster(reader, position, element, header.segmentEnd, walk);
      continue;
    }
    if (element.size === null) break;
    position = element.dataStart + element.size;
  }
  const clusters = walk.clusters;
  return {
    textTracks: await toTextTracks(header.subtitles, walk.cues, header.timestampScale),
    clusterIndex:
      clusters && clusters.length > 0 && header.firstCluster !== undefined
        ? {
            videoTrack,
            otherTracks: trackNumbers
              .filter((number) => number !== videoTrack)
              .slice(0, MAX_CUE_TRACKS - 1),
            segmentStart: header.segment.start,
            segmentDataStart: header.segment.dataStart,
            segmentSize: header.segment.size,
            firstCluster: header.firstCluster,
            ...clusters.columns(),
          }
        : null,
    totals: new Map([...timelines].map(([number, timeline]) => [number, timeline.totals()])),
  };
}

/**
 * Whether Cues placed before the first Cluster would let mediabunny seek the file: it has
 * none of its own, and no SeekHead entry points at or past the first Cluster (those positions
 * would move with the inserted Cues).
 */
function indexable(header: MatroskaHeader): boolean {
  const { firstCluster, segment } = header;
  return (
    !header.hasCues &&
    firstCluster !== undefined &&
    header.lastSeekPosition < firstCluster - segment.dataStart
  );
}

/** Every position a SeekHead lists, duplicates included. */
function seekPositions(data: Uint8Array): number[] {
  return childElements(data)
    .filter((element) => element.id === Id.Seek)
    .flatMap((seek) => childElements(seek.data).filter((field) => field.id === Id.SeekPosition))
    .map((field) => readUint(field.data));
}

async function readEbmlHeader(
  reader: RangeReader,
): Promise<{ docType: "webm" | "matroska"; end: number }> {
  const header = await readHeader(reader, 0);
  if (header === null || header.id !== Id.Ebml || header.size === null || header.size > 4096) {
    throw corruptMedia("The EBML header at the start of the file is broken.");
  }
  const end = header.dataStart + header.size;
  const data = await reader.bytes(header.dataStart, header.size);
  if (end > reader.size) throw corruptMedia("The EBML header is cut short.");
  const docType = childElements(data).find((element) => element.id === Id.DocType);
  const name = docType ? readString(docType.data) : "matroska";
  if (name !== "webm" && name !== "matroska") {
    throw unsupportedMedia(`The EBML file is a "${name}" document, not Matroska or WebM.`);
  }
  return { docType: name, end };
}

async function toTextTracks(
  tracks: SubtitleTrackEntry[],
  cues: RawCue[],
  timestampScale: number,
): Promise<TextTrack[]> {
  const seconds = (ticks: number) =>
    Math.round(Math.max(0, (ticks * timestampScale) / 1e9) * 1e6) / 1e6;
  const result: TextTrack[] = [];
  for (const track of tracks) {
    const own = cues.filter((cue) => cue.track === track).sort((a, b) => a.ticks - b.ticks);
    const textCues: TextCue[] = [];
    for (const [i, cue] of own.entries()) {
      const text = cueText(track.codec, new TextDecoder().decode(await track.decode(cue.payload)));
      if (text === "") continue;
      const start = seconds(cue.ticks);
      const next = own[i + 1];
      const end =
        cue.durationTicks !== null
          ? seconds(cue.ticks + cue.durationTicks)
          : track.defaultDuration !== undefined
            ? Math.round((start + track.defaultDuration / 1e9) * 1e6) / 1e6
            : next
              ? seconds(next.ticks)
              : start;
      textCues.push({ start, end, text });
    }
    result.push({
      index: result.length,
      codec: track.codec,
      ...(track.language === undefined ? {} : { language: track.language }),
      ...(track.name === undefined ? {} : { name: track.name }),
      cues: textCues,
    });
  }
  return result;
}
