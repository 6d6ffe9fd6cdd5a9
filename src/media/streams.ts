import {
  CustomSource,
  EncodedPacketSink,
  Input,
  type InputAudioTrack,
  type InputVideoTrack,
  Logging,
  LogLevel,
  MATROSKA,
  type MetadataTags,
  MP4,
  QTFF,
  WEBM,
} from "mediabunny";
import type { MediaProbe, RangeSource } from "../domain/media";
import { corruptMedia, MediaError, unsupportedMedia } from "./errors";

// mediabunny warns on stdout about the tracks it skips, which are the subtitle tracks this
// service reads itself; only its errors are worth a log line.
Logging.level = LogLevel.Errors;

/** mediabunny's read cache; its reads are index-sized, so a few MiB is plenty. */
const MAX_CACHE_BYTES = 4 * 1024 * 1024;

/** What probing measures of the audio/video streams, key frames and container tags. */
export interface StreamFacts {
  duration: number;
  video: NonNullable<MediaProbe["video"]>;
  audio: MediaProbe["audio"];
  keyframes: number[];
  tags: MetadataTags;
}

/** What the track headers say, read by mediabunny without touching the media data. */
export interface StreamHeaders {
  video: Omit<StreamFacts["video"], "frameCount" | "fps">;
  audio: MediaProbe["audio"];
  tags: MetadataTags;
  /** The container's number of the primary video track. */
  videoTrack: number;
  /** The container's numbers of every audio and video track; the duration is their longest. */
  tracks: number[];
}

/** Frame count, frame rate, key frames and duration: what a pass over the packets gives. */
export interface FrameFacts {
  duration: number;
  frameCount: number;
  fps: number;
  keyframes: number[];
}

/** Measures the frames of a file from its track headers, by a container's own walk. */
export type FrameWalk = (headers: StreamHeaders) => Promise<FrameFacts>;

/**
 * Measures the streams. mediabunny reads the track headers; the frames come from its packet
 * index (ISO BMFF: the sample tables, never the media data) unless `walk` measures them.
 */
export async function measureStreams(source: RangeSource, walk?: FrameWalk): Promise<StreamFacts> {
  const { headers, frames } = await readWithMediabunny(source, walk === undefined);
  const measured = frames ?? (await walk?.(headers));
  if (measured === undefined) throw new Error("No frame measurement was asked for.");
  return {
    duration: measured.duration,
    video: { ...headers.video, frameCount: measured.frameCount, fps: measured.fps },
    audio: headers.audio,
    keyframes: measured.keyframes,
    tags: headers.tags,
  };
}

async function readWithMediabunny(
  source: RangeSource,
  scanPackets: boolean,
): Promise<{ headers: StreamHeaders; frames?: FrameFacts }> {
  // A failing read (storage down) is not a damaged file; remember it to tell the two apart.
  const readFailures: unknown[] = [];
  const input = new Input({
    formats: [MP4, QTFF, WEBM, MATROSKA],
    source: new CustomSource({
      getSize: () => source.size,
      read: async (start, end) => {
        try {
          return await source.read(start, end);
        } catch (error) {
          readFailures.push(error);
          throw error;
        }
      },
      maxCacheSize: MAX_CACHE_BYTES,
      // Read-ahead belongs to the RangeSource (R2 windows), not to a second layer here.
      prefetchProfile: "none",
    }),
  });
  try {
    const videoTrack = await input.getPrimaryVideoTrack();
    if (videoTrack === null) {
      throw unsupportedMedia(
        "The file has no video track.",
        "Upload a video: an MP4, MOV, M4V, WebM or MKV file with a picture track.",
      );
    }
    const frames = scanPackets ? await measureFrames(videoTrack) : undefined;
    const audioTrack = await input.getPrimaryAudioTrack();
    const headers: StreamHeaders = {
      video: {
        codec: (await videoTrack.getCodec()) ?? (await fallbackCodec(videoTrack)),
        // Square-pixel size: what a viewer sees before the rotation is applied.
        width: await videoTrack.getSquarePixelWidth(),
        height: await videoTrack.getSquarePixelHeight(),
        rotation: await videoTrack.getRotation(),
      },
      audio: audioTrack === null ? null : await describeAudio(audioTrack),
      tags: await input.getMetadataTags(),
      videoTrack: videoTrack.id,
      tracks: (await input.getTracks()).map((track) => track.id),
    };
    if (frames === undefined) return { headers };
    return { headers, frames: { ...frames, duration: round(await input.computeDuration()) } };
  } catch (error) {
    if (error instanceof MediaError) throw error;
    if (readFailures.length > 0) throw readFailures[0];
    const detail = error instanceof Error ? error.message : String(error);
    throw corruptMedia(`The file could not be read: ${detail}`);
  } finally {
    input.dispose();
  }
}

/** One pass over the packet index (no media data): count, frame rate and key frames. */
async function measureFrames(track: InputVideoTrack): Promise<Omit<FrameFacts, "duration">> {
  const sink = new EncodedPacketSink(track);
  let count = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  const keyframes: number[] = [];
  for await (const packet of sink.packets(undefined, undefined, { metadataOnly: true })) {
    count++;
    first = Math.min(first, packet.timestamp);
    last = Math.max(last, packet.timestamp + packet.duration);
    if (packet.type === "key") keyframes.push(round(packet.timestamp));
  }
  return {
    frameCount: count,
    fps: framesPerSecond(count, last - first),
    keyframes: [...new Set(keyframes)].sort((a, b) => a - b),
  };
}

/** Frames over the span from the first packet's start to the last one's end, to 3 decimals. */
export function framesPerSecond(count: number, span: number): number {
  return count > 0 && span > 0 ? Math.round((count / span) * 1000) / 1000 : 0;
}

async function describeAudio(
  track: InputAudioTrack,
): Promise<{ codec: string; channels: number; sampleRate: number }> {
  return {
    codec: (await track.getCodec()) ?? (await fallbackCodec(track)),
    channels: await track.getNumberOfChannels(),
    sampleRate: await track.getSampleRate(),
  };
}

/** A codec mediabunny cannot name is still reported by its codec string, never invented. */
async function fallbackCodec(track: InputVideoTrack | InputAudioTrack): Promise<string> {
  return (await track.getCodecParameterString()) ?? "unknown";
}

/** Rounds to microseconds, so times compare cleanly. */
function round(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}
