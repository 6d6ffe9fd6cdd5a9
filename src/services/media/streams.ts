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
import type { MediaProbe, RangeSource } from "../../domain/media";
import { corruptMedia, MediaError, unsupportedMedia } from "./errors";

// mediabunny warns on stdout about the tracks it skips, which are the subtitle tracks this
// service reads itself; only its errors are worth a log line.
Logging.level = LogLevel.Errors;

/** mediabunny's read cache; its reads are index-sized, so a few MiB is plenty. */
const MAX_CACHE_BYTES = 4 * 1024 * 1024;

/** What mediabunny measures: the audio/video streams, key frames and container tags. */
export interface StreamFacts {
  duration: number;
  video: NonNullable<MediaProbe["video"]>;
  audio: MediaProbe["audio"];
  keyframes: number[];
  tags: MetadataTags;
}

/**
 * Measures the streams through mediabunny, reading only what its demuxers need: the sample
 * tables for ISO BMFF (media data is never touched), the clusters for Matroska.
 */
export async function measureStreams(source: RangeSource): Promise<StreamFacts> {
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
    const frames = await measureFrames(videoTrack);
    const audioTrack = await input.getPrimaryAudioTrack();
    return {
      duration: round(await input.computeDuration()),
      video: {
        codec: (await videoTrack.getCodec()) ?? (await fallbackCodec(videoTrack)),
        // Square-pixel size: what a viewer sees before the rotation is applied.
        width: await videoTrack.getSquarePixelWidth(),
        height: await videoTrack.getSquarePixelHeight(),
        rotation: await videoTrack.getRotation(),
        frameCount: frames.count,
        fps: frames.fps,
      },
      audio: audioTrack === null ? null : await describeAudio(audioTrack),
      keyframes: frames.keyframes,
      tags: await input.getMetadataTags(),
    };
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
async function measureFrames(
  track: InputVideoTrack,
): Promise<{ count: number; fps: number; keyframes: number[] }> {
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
  const span = last - first;
  return {
    count,
    fps: count > 0 && span > 0 ? Math.round((count / span) * 1000) / 1000 : 0,
    keyframes: [...new Set(keyframes)].sort((a, b) => a - b),
  };
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
