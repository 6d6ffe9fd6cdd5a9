import type { ClusterIndex, MediaProbe, RangeSource, TextTrack } from "../domain/media";
import { findMoov, readMoov, topLevelBoxes } from "./bmff-boxes";
import { type BmffIndex, readBmffIndex, SampleIndex } from "./bmff-samples";
import { readMp4TextTracks } from "./bmff-text";
import { pickCoverArt, toMediaTags } from "./container-tags";
import { corruptMedia, unsupportedMedia } from "./errors";
import { clusterWalkReader, matroskaReader, readMatroskaHeader, walkMatroska } from "./matroska";
import { frameFacts, roundMicros } from "./matroska-frames";
import { bytesSource, RangeReader } from "./range-reader";
import { describeLookalike, isEbml, isIsoBmff, isoContainer, SNIFF_BYTES } from "./sniff";
import {
  type FrameFacts,
  framesPerSecond,
  measureStreams,
  type StreamFacts,
  type StreamHeaders,
} from "./streams";

/** Top-level box headers are sparse: a small window keeps the walk to a few KiB. */
const BOX_WALK_WINDOW_BYTES = 4 * 1024;

/**
 * Measures an uploaded video by ranged reads: MP4/MOV/M4V (ISO BMFF, `moov` first or last)
 * and WebM/MKV. Throws MediaError `unsupported-media` for anything else or a file without
 * video, and `corrupt-media` for a damaged file of a supported container.
 */
export async function probeMedia(
  source: RangeSource,
  hints: { filename: string; contentType: string },
): Promise<MediaProbe> {
  if (source.size === 0) throw unsupportedMedia(`"${hints.filename}" is empty (0 bytes).`);
  const head = await source.read(0, Math.min(source.size, SNIFF_BYTES));
  try {
    if (isEbml(head)) return await probeMatroska(source);
    if (isIsoBmff(head)) return await probeIsoBmff(source, head, hints.filename);
  } catch (error) {
    // Reading past the end of a box or element means its size fields lie: a damaged file.
    if (error instanceof RangeError) throw corruptMedia(`The file is damaged: ${error.message}`);
    throw error;
  }
  throw unsupportedMedia(
    `"${hints.filename}" (${hints.contentType}) is ${describeLookalike(head)}, ` +
      "not an MP4, MOV, M4V, WebM or MKV video.",
  );
}

async function probeIsoBmff(
  source: RangeSource,
  head: Uint8Array,
  filename: string,
): Promise<MediaProbe> {
  const reader = new RangeReader(source, BOX_WALK_WINDOW_BYTES);
  const boxes = await topLevelBoxes(reader);
  const cut = boxes.find((box) => box.end > source.size);
  if (cut !== undefined) {
    throw corruptMedia(
      `The "${cut.type}" box ends at byte ${cut.end} but the file has ${source.size} bytes; ` +
        "the file is cut short.",
    );
  }
  findMoov(reader, boxes);
  const index = await readBmffIndex(source);
  if (index === null) {
    // Fragmented: the index lives in the fragments, which mediabunny reads one at a time.
    const textTracks = await readMp4TextTracks(source, await readMoov(reader, boxes));
    return assemble(isoContainer(head, filename), await measureStreams(source), textTracks);
  }
  const textTracks = await readMp4TextTracks(source, index.moov);
  // mediabunny reads the moov without its sample tables; the frames come from the tables,
  // read by ranges, so a 10-hour file's index is never held whole.
  const streams = await measureStreams(bytesSource(index.headers), (headers) =>
    bmffFrames(index, headers),
  );
  return assemble(isoContainer(head, filename), streams, textTracks);
}

/** Frames, key frames and duration from the sample tables, as mediabunny would count them. */
async function bmffFrames(index: BmffIndex, headers: StreamHeaders): Promise<FrameFacts> {
  const open = (id: number) => {
    const tables = index.tracks.get(id);
    if (tables === undefined) throw new RangeError(`Track ${id} has no sample table.`);
    return SampleIndex.open(index.source, tables);
  };
  const video = await open(headers.videoTrack);
  const keyframes = new Set<number>();
  for await (const time of video.keyTimes()) keyframes.add(roundMicros(time));
  let duration = 0;
  for (const id of headers.tracks) {
    const track = id === headers.videoTrack ? video : await open(id);
    duration = Math.max(duration, await track.end());
  }
  return {
    duration: roundMicros(duration),
    frameCount: video.count,
    fps: framesPerSecond(video.count, (await video.endTime()) - (await video.startTime())),
    keyframes: [...keyframes].sort((a, b) => a - b),
  };
}

/**
 * Matroska keeps no frame index: one walk of the Clusters, front to back, gives the frames,
 * key frames, duration and every subtitle cue, after mediabunny has read the track headers.
 * A file without Cues also gets where each Cluster starts, so its cuts can seek.
 */
async function probeMatroska(source: RangeSource): Promise<MediaProbe> {
  const header = await readMatroskaHeader(matroskaReader(source));
  let textTracks: TextTrack[] = [];
  let clusterIndex: ClusterIndex | null = null;
  const streams = await measureStreams(source, async (headers) => {
    const reader = clusterWalkReader(source);
    try {
      const walk = await walkMatroska(reader, header, headers.tracks, headers.videoTrack);
      textTracks = walk.textTracks;
      clusterIndex = walk.clusterIndex;
      return frameFacts(walk.totals, headers.videoTrack);
    } finally {
      await reader.close?.();
    }
  });
  const container = header.docType === "webm" ? "webm" : "mkv";
  const probe = assemble(container, streams, textTracks, header.title);
  return clusterIndex === null ? probe : { ...probe, clusterIndex };
}

function assemble(
  container: MediaProbe["container"],
  streams: StreamFacts,
  textTracks: TextTrack[],
  segmentTitle?: string,
): MediaProbe {
  return {
    container,
    duration: streams.duration,
    video: streams.video,
    audio: streams.audio,
    keyframes: streams.keyframes,
    textTracks,
    tags: toMediaTags(streams.tags, segmentTitle),
    coverArt: pickCoverArt(streams.tags),
  };
}
