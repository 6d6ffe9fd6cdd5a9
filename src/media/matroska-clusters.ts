import type { ClusterIndexBuilder } from "./cluster-index";
import { type ElementHeader, Id, readHeader, readUint, readVint, SEGMENT_CHILDREN } from "./ebml";
import type { BlockTiming, TrackTimeline } from "./matroska-frames";
import type { SubtitleTrackEntry } from "./matroska-tracks";
import type { ByteReader } from "./stream-reader";

/** A subtitle block as stored: its payload still encoded as the track says. */
export interface RawCue {
  track: SubtitleTrackEntry;
  ticks: number;
  durationTicks: number | null;
  payload: Uint8Array;
}

/** What a Cluster walk collects: subtitle blocks, and the timing of the measured tracks. */
export interface ClusterWalk {
  subtitles: SubtitleTrackEntry[];
  /** Tracks whose block headers are timed, by track number. */
  timelines: Map<number, TrackTimeline>;
  cues: RawCue[];
  /** Where each Cluster starts and its timestamp, when the file has no Cues to seek by. */
  clusters?: ClusterIndexBuilder;
}

/** A subtitle block larger than this is not text. */
const MAX_CUE_BYTES = 256 * 1024;

interface PendingBlock {
  track: number;
  timing: BlockTiming;
  cue?: { entry: SubtitleTrackEntry; durationTicks: number | null; payload: Uint8Array };
}

/**
 * Walks one Cluster's children by their headers: times the blocks of measured tracks and
 * keeps subtitle payloads; no other payload is read. Returns where the Cluster ends.
 */
export async function scanCluster(
  reader: ByteReader,
  clusterStart: number,
  cluster: ElementHeader,
  segmentEnd: number,
  walk: ClusterWalk,
): Promise<number> {
  const end = cluster.size === null ? segmentEnd : cluster.dataStart + cluster.size;
  let clusterTicks = 0;
  const blocks: PendingBlock[] = [];
  let position = cluster.dataStart;
  let stop = end;
  while (position < end) {
    const child = await readHeader(reader, position);
    // Live-written clusters have no size: the next Segment child marks their end.
    if (child === null || SEGMENT_CHILDREN.has(child.id)) {
      stop = child === null ? end : position;
      break;
    }
    if (child.size === null) break;
    const childEnd = child.dataStart + child.size;
    if (child.id === Id.Timestamp) {
      clusterTicks = readUint(await reader.bytes(child.dataStart, child.size));
    } else if (child.id === Id.SimpleBlock) {
      const block = await readBlock(reader, child, walk);
      if (block) blocks.push(block);
    } else if (child.id === Id.BlockGroup) {
      const block = await readBlockGroup(reader, child, walk);
      if (block) blocks.push(block);
    }
    position = childEnd;
  }
  settle(clusterTicks, blocks, walk);
  const clusters = walk.clusters;
  if (clusters) {
    const key = blocks.some((block) => block.track === clusters.videoTrack && block.timing.key);
    clusters.add(clusterStart, clusterTicks, key);
  }
  return stop;
}

/** Hands a Cluster's blocks to their timelines and cues, now that its timestamp is known. */
function settle(clusterTicks: number, blocks: PendingBlock[], walk: ClusterWalk): void {
  for (const [number, timeline] of walk.timelines) {
    const own = blocks.filter((block) => block.track === number).map((block) => block.timing);
    timeline.addCluster(clusterTicks, own);
  }
  for (const { timing, cue } of blocks) {
    if (cue === undefined) continue;
    walk.cues.push({
      track: cue.entry,
      ticks: clusterTicks + timing.relativeTicks,
      durationTicks: cue.durationTicks,
      payload: cue.payload,
    });
  }
}

async function readBlockGroup(
  reader: ByteReader,
  group: ElementHeader,
  walk: ClusterWalk,
): Promise<PendingBlock | undefined> {
  if (group.size === null) return undefined;
  // The block is read where it lies, before the parts after it: the walk never reads back.
  let pending: PendingBlock | undefined;
  let duration: number | null = null;
  let referenced = false;
  for (let at = group.dataStart; at < group.dataStart + group.size; ) {
    const part = await readHeader(reader, at);
    if (part === null || part.size === null) break;
    if (part.id === Id.Block) pending = await readBlock(reader, part, walk);
    if (part.id === Id.BlockDuration) {
      duration = readUint(await reader.bytes(part.dataStart, part.size));
    }
    // A block that refers to another is not a key frame (as ffmpeg and mediabunny read it).
    if (part.id === Id.ReferenceBlock) referenced = true;
    at = part.dataStart + part.size;
  }
  if (pending === undefined) return undefined;
  pending.timing.key = !referenced;
  pending.timing.durationTicks = duration ?? 0;
  if (pending.cue) pending.cue.durationTicks = duration;
  return pending;
}

/** Reads a block's header (and a subtitle block's payload); undefined for tracks not walked. */
async function readBlock(
  reader: ByteReader,
  block: ElementHeader,
  walk: ClusterWalk,
): Promise<PendingBlock | undefined> {
  if (block.size === null) return undefined;
  const head = await reader.bytes(block.dataStart, Math.min(block.size, 12));
  const trackNumber = readVint(head, 0, false);
  if (trackNumber === null || head.length < trackNumber.length + 3) return undefined;
  const track = trackNumber.value;
  const subtitle = walk.subtitles.find((entry) => entry.number === track);
  if (subtitle === undefined && !walk.timelines.has(track)) return undefined;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const flags = view.getUint8(trackNumber.length + 2);
  const headerLength = trackNumber.length + 3;
  const laced = (flags & 0x06) !== 0;
  const timing: BlockTiming = {
    relativeTicks: view.getInt16(trackNumber.length),
    durationTicks: 0,
    key: (flags & 0x80) !== 0,
    // A laced block starts with its frame count less one.
    frames: laced ? (head[headerLength] ?? 0) + 1 : 1,
  };
  if (subtitle === undefined) return { track, timing };
  // Laced text blocks do not occur in practice; skipping beats guessing frame boundaries.
  const payloadBytes = block.size - headerLength;
  if (laced || payloadBytes > MAX_CUE_BYTES) return undefined;
  const payload = await reader.bytes(block.dataStart + headerLength, payloadBytes);
  return { track, timing, cue: { entry: subtitle, durationTicks: null, payload: payload.slice() } };
}
