import type { RangeSource, TextCue, TextTrack } from "../../domain/media";
import {
  childElements,
  type ElementHeader,
  Id,
  readHeader,
  readString,
  readUint,
  readVint,
  SEGMENT_CHILDREN,
} from "./ebml";
import { corruptMedia, unsupportedMedia } from "./errors";
import {
  parseInfo,
  parseSeekHead,
  parseSubtitleTracks,
  type SegmentInfo,
  type SubtitleTrackEntry,
} from "./matroska-tracks";
import { cueText } from "./subtitle-text";
import { WindowReader } from "./window-reader";

/** What the Matroska walk adds to what mediabunny reports. */
export interface MatroskaExtras {
  docType: "webm" | "matroska";
  /** The Segment Info title. */
  title?: string;
  textTracks: TextTrack[];
}

/** Header elements (Info, Tracks, SeekHead) larger than this are garbled sizes, not data. */
const MAX_HEADER_ELEMENT_BYTES = 16 * 1024 * 1024;
/** A subtitle block larger than this is not text. */
const MAX_CUE_BYTES = 256 * 1024;

interface RawCue {
  track: SubtitleTrackEntry;
  ticks: number;
  durationTicks: number | null;
  payload: Uint8Array;
}

/**
 * Reads the Matroska/WebM pieces no library exposes: the Segment title and the text of the
 * subtitle tracks. Clusters are walked by their element headers through one window, reading
 * only subtitle blocks; files without subtitle tracks stop at the first Cluster.
 */
export async function readMatroskaExtras(source: RangeSource): Promise<MatroskaExtras> {
  const reader = new WindowReader(source);
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
  let tracks: SubtitleTrackEntry[] | undefined;
  let seek = new Map<number, number>();
  const readHeaderElement = async (header: ElementHeader) =>
    header.size !== null && header.size <= MAX_HEADER_ELEMENT_BYTES
      ? reader.bytes(header.dataStart, header.size)
      : new Uint8Array(0);
  // Info and Tracks usually precede the first Cluster; when not, the SeekHead says where.
  const viaSeekHead = async (id: number) => {
    const position = seek.get(id);
    if (position === undefined) return undefined;
    const header = await readHeader(reader, segment.dataStart + position);
    return header?.id === id ? readHeaderElement(header) : undefined;
  };

  const cues: RawCue[] = [];
  let position = segment.dataStart;
  while (position < segmentEnd) {
    const header = await readHeader(reader, position);
    if (header === null) break;
    if (header.id === Id.Cluster) {
      info ??= parseInfo((await viaSeekHead(Id.Info)) ?? new Uint8Array(0));
      const tracksData = tracks === undefined ? await viaSeekHead(Id.Tracks) : undefined;
      if (tracksData) tracks = parseSubtitleTracks(tracksData);
      if (tracks === undefined || tracks.length === 0) break;
      position = await scanCluster(reader, header, segmentEnd, tracks, cues);
      continue;
    }
    if (header.size === null) break;
    if (header.id === Id.SeekHead) seek = parseSeekHead(await readHeaderElement(header));
    if (header.id === Id.Info) info = parseInfo(await readHeaderElement(header));
    if (header.id === Id.Tracks) tracks = parseSubtitleTracks(await readHeaderElement(header));
    position = header.dataStart + header.size;
  }
  if (tracks === undefined) {
    const tracksData = await viaSeekHead(Id.Tracks);
    if (tracksData === undefined) throw corruptMedia("The Matroska file has no track list.");
    tracks = parseSubtitleTracks(tracksData);
  }
  info ??= parseInfo((await viaSeekHead(Id.Info)) ?? new Uint8Array(0));
  return {
    docType,
    ...(info.title === undefined ? {} : { title: info.title }),
    textTracks: await toTextTracks(tracks, cues, info.timestampScale),
  };
}

async function readEbmlHeader(
  reader: WindowReader,
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

/** Walks one Cluster's children, collecting subtitle blocks; returns where the Cluster ends. */
async function scanCluster(
  reader: WindowReader,
  cluster: ElementHeader,
  segmentEnd: number,
  tracks: SubtitleTrackEntry[],
  cues: RawCue[],
): Promise<number> {
  const end = cluster.size === null ? segmentEnd : cluster.dataStart + cluster.size;
  let clusterTicks = 0;
  let position = cluster.dataStart;
  while (position < end) {
    const child = await readHeader(reader, position);
    // Live-written clusters have no size: the next Segment child marks their end.
    if (child === null || SEGMENT_CHILDREN.has(child.id)) return child === null ? end : position;
    if (child.size === null) return end;
    const childEnd = child.dataStart + child.size;
    if (child.id === Id.Timestamp) {
      clusterTicks = readUint(await reader.bytes(child.dataStart, child.size));
    } else if (child.id === Id.SimpleBlock) {
      await readBlock(reader, child, clusterTicks, null, tracks, cues);
    } else if (child.id === Id.BlockGroup) {
      let block: ElementHeader | undefined;
      let duration: number | null = null;
      for (let at = child.dataStart; at < childEnd; ) {
        const part = await readHeader(reader, at);
        if (part === null || part.size === null) break;
        if (part.id === Id.Block) block = part;
        if (part.id === Id.BlockDuration) {
          duration = readUint(await reader.bytes(part.dataStart, part.size));
        }
        at = part.dataStart + part.size;
      }
      if (block) await readBlock(reader, block, clusterTicks, duration, tracks, cues);
    }
    position = childEnd;
  }
  return end;
}

async function readBlock(
  reader: WindowReader,
  block: ElementHeader,
  clusterTicks: number,
  durationTicks: number | null,
  tracks: SubtitleTrackEntry[],
  cues: RawCue[],
): Promise<void> {
  if (block.size === null) return;
  const head = await reader.bytes(block.dataStart, Math.min(block.size, 12));
  const trackNumber = readVint(head, 0, false);
  if (trackNumber === null || head.length < trackNumber.length + 3) return;
  const track = tracks.find((entry) => entry.number === trackNumber.value);
  if (track === undefined) return;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const relative = view.getInt16(trackNumber.length);
  const flags = view.getUint8(trackNumber.length + 2);
  const headerLength = trackNumber.length + 3;
  // Laced text blocks do not occur in practice; skipping beats guessing frame boundaries.
  if ((flags & 0x06) !== 0 || block.size - headerLength > MAX_CUE_BYTES) return;
  const payload = await reader.bytes(block.dataStart + headerLength, block.size - headerLength);
  cues.push({ track, ticks: clusterTicks + relative, durationTicks, payload: payload.slice() });
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
