import { z } from "zod";
import type { MediaProbe } from "../domain/media";
import type { PlannedWindow } from "./types";

/**
 * How the production engine cuts a video into windows. Every window stays far inside one
 * invocation's limits whatever the video's length; the defaults follow the platform's
 * documented limits (Media Transformations: input < 100 MB, `time` 0–30 s).
 */
export interface WindowSettings {
  /** Audio is heard in windows of this many seconds (Whisper's own context is 30 s). */
  audioWindowSeconds: number;
  /** One frame is looked at per this many seconds of video: the stated sampling rate. */
  frameIntervalSeconds: number;
  /** Frames per window (one queue message): their cuts, frame extractions and vision calls. */
  framesPerWindow: number;
  /** Largest `time` the Media binding accepts, so a cut's wanted frame is never further in. */
  maxFrameOffsetSeconds: number;
  /** Largest input the Media binding accepts. */
  maxInputBytes: number;
  /** Frames are scaled down to fit this box before a vision model sees them. */
  frameBoxPixels: number;
  /** Frames of a window worked at once (each cut, extracted, then described). */
  concurrency: number;
}

/** The settings used unless the engine is given others. */
export const DEFAULT_WINDOW_SETTINGS: WindowSettings = {
  audioWindowSeconds: 30,
  frameIntervalSeconds: 4,
  framesPerWindow: 8,
  maxFrameOffsetSeconds: 30,
  maxInputBytes: 100 * 1000 * 1000,
  frameBoxPixels: 640,
  // Four at a time keeps a batch of five windows at about 20 cuts in memory (a few MB each)
  // while its calls outpace the paced model rate.
  concurrency: 4,
};

/** A stretch of audio to hear: [start, end) in seconds. */
export const AudioPlanSchema = z.object({ start: z.number().min(0), end: z.number().min(0) });
export type AudioPlan = z.infer<typeof AudioPlanSchema>;

/** Frames to look at: each a cell of the sampling grid and the time wanted in it (its middle). */
export const FramesPlanSchema = z.object({
  cells: z.array(z.object({ from: z.number().min(0), to: z.number().min(0), at: z.number() })),
  /** The first window's first frame may become the thumbnail. */
  thumbnail: z.boolean(),
});
export type FramesPlan = z.infer<typeof FramesPlanSchema>;

const TimedTextSchema = z.object({
  start: z.number(),
  end: z.number(),
  text: z.string(),
  origin: z.enum(["caption", "speech"]),
  source: z.string(),
  language: z.string().nullable(),
  group: z.number(),
});

/**
 * What the calls to one model used (domain `ModelUse`): calls answered, the tokens the model
 * reported, the seconds of audio sent. Results stored before it was recorded read as none.
 */
export const ModelUseSchema = z.object({
  model: z.string(),
  calls: z.number().int().min(0),
  input_tokens: z.number().min(0),
  output_tokens: z.number().min(0),
  audio_seconds: z.number().min(0),
});

/** What one audio window yielded. `heard` is the seconds transcribed validly (0 on failure). */
export const AudioResultSchema = z.object({
  spans: z.array(TimedTextSchema),
  language: z.string().nullable(),
  heard: z.number().min(0),
  notes: z.array(z.string()),
  usage: z.array(ModelUseSchema).default([]),
});
export type AudioResult = z.infer<typeof AudioResultSchema>;

/** One frame a vision model described, and the stretch of video it stands for. */
export const SeenFrameSchema = z.object({
  time: z.number(),
  from: z.number(),
  to: z.number(),
  description: z.string(),
  tags: z.array(z.string()),
  visibleText: z.array(z.string()),
});
export type SeenFrame = z.infer<typeof SeenFrameSchema>;

/** What one frames window yielded; the thumbnail frame, when kept, is stored in R2. */
export const FramesResultSchema = z.object({
  frames: z.array(SeenFrameSchema),
  thumbnail: z.object({ time: z.number(), contentType: z.string() }).nullable(),
  notes: z.array(z.string()),
  usage: z.array(ModelUseSchema).default([]),
});
export type FramesResult = z.infer<typeof FramesResultSchema>;

/**
 * The windows of a probed video: audio over its whole duration, and one frame per
 * `frameIntervalSeconds` over its whole duration, batched; in time order, audio and frames
 * interleaved, so both rate limits are worked at once. Pure and deterministic.
 */
export function planWindows(probe: MediaProbe, settings: WindowSettings): PlannedWindow[] {
  const windows: PlannedWindow[] = [];
  const duration = Number.isFinite(probe.duration) ? Math.max(0, probe.duration) : 0;
  if (probe.audio) {
    const step = settings.audioWindowSeconds;
    for (let start = 0; start < duration; start += step) {
      const plan: AudioPlan = { start, end: Math.min(duration, start + step) };
      windows.push({ kind: "audio", plan });
    }
  }
  if (probe.video) {
    const interval = settings.frameIntervalSeconds;
    const cells: FramesPlan["cells"] = [];
    for (let from = 0; from < duration; from += interval) {
      const to = Math.min(duration, from + interval);
      cells.push({ from, to, at: (from + to) / 2 });
    }
    for (let i = 0; i < cells.length; i += settings.framesPerWindow) {
      const plan: FramesPlan = {
        cells: cells.slice(i, i + settings.framesPerWindow),
        thumbnail: i === 0,
      };
      windows.push({ kind: "frames", plan });
    }
  }
  const startOf = (w: PlannedWindow) =>
    w.kind === "audio" ? (w.plan as AudioPlan).start : ((w.plan as FramesPlan).cells[0]?.from ?? 0);
  // Stable: at the same start, audio first.
  return windows
    .map((w, i) => ({ w, i }))
    .sort((a, b) => startOf(a.w) - startOf(b.w) || a.i - b.i)
    .map(({ w }) => w);
}

/**
 * The stretch a frame at `time` stands for: its whole cell when it lies in it (the stated rate
 * is one frame per cell), else only the part of the cell within half an interval of it, so a
 * frame taken far from its cell (a distant key frame) does not count as seeing what it cannot.
 */
export function standsFor(
  cell: { from: number; to: number },
  time: number,
  interval: number,
): { from: number; to: number } | null {
  if (time >= cell.from && time < cell.to) return { from: cell.from, to: cell.to };
  const from = Math.max(cell.from, time - interval / 2);
  const to = Math.min(cell.to, time + interval / 2);
  return to > from ? { from, to } : null;
}
