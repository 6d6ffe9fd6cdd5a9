import type { MediaProbe, TextTrack } from "../../../src/domain/media";
import type { UnderstandInput } from "../../../src/ports/media-understanding/port";

/** A probe of an ordinary 30 s H.264/AAC MP4 with keyframes every 2 s and nothing else. */
export function probe(overrides: Partial<MediaProbe> = {}): MediaProbe {
  const duration = overrides.duration ?? 30;
  const keyframes: number[] = [];
  for (let t = 0; t < duration; t += 2) keyframes.push(t);
  return {
    container: "mp4",
    duration,
    video: { codec: "avc1", width: 1920, height: 1080, rotation: 0, frameCount: 900, fps: 30 },
    audio: { codec: "mp4a", channels: 2, sampleRate: 48000 },
    keyframes,
    textTracks: [],
    tags: { keywords: [], other: {} },
    coverArt: null,
    ...overrides,
  };
}

/** A text track from `[start, end, text]` triples. */
export function track(
  index: number,
  cues: [number, number, string][],
  language?: string,
  codec = "tx3g",
): TextTrack {
  return {
    index,
    codec,
    ...(language ? { language } : {}),
    cues: cues.map(([start, end, text]) => ({ start, end, text })),
  };
}

/** The engine input for a probe; the bytes live at `objectKey` when a test puts them there. */
export function understandInput(
  p: MediaProbe,
  overrides: Partial<UnderstandInput> = {},
): UnderstandInput {
  return {
    videoId: "vid_01JTEST",
    filename: "holiday.mp4",
    contentType: "video/mp4",
    objectKey: "videos/vid_01JTEST/original",
    probe: p,
    source: { size: 4_000_000, read: async () => new Uint8Array() },
    ...overrides,
  };
}
