import { COMPLETE_SHARE } from "../../domain/evidence";
import type { MediaBindingLike } from "../../env";
import { assemble, type FrameImage, type FrameScene, finalLimitations } from "./assemble";
import {
  DEFAULT_EDGE_LIMITS,
  type EdgeLimits,
  extractAudio,
  extractFrame,
  frameTimeFor,
  mapLimit,
  planAudioChunks,
  SourceMissingError,
  type SourceOpener,
  toBase64,
} from "./edge-media";
import { captionExtents, frameExtent, speechExtents, transcriptComplete } from "./extent";
import {
  type AiLike,
  parseVision,
  parseWhisper,
  VISION_MODEL,
  visionInput,
  WHISPER_MODEL,
  whisperInput,
} from "./model-outputs";
import type { MediaUnderstanding, UnderstandInput, VideoUnderstanding } from "./port";
import { planSegments, type TimeRange } from "./segmenter";
import { unique } from "./tags";
import { captionSpans, type TimedText } from "./timed-text";

/** Engine id of the production adapter; bump the suffix when models or rules change. */
export const WORKERS_AI_ENGINE_ID = "workers-ai@2";

/** What the production adapter needs, passed once when the consumer is built. */
export interface WorkersAiDependencies {
  ai: AiLike;
  media: MediaBindingLike;
  bucket: R2Bucket;
  limits?: Partial<EdgeLimits>;
}

interface Run {
  input: UnderstandInput;
  open: SourceOpener;
  notes: Set<string>;
  /** False once the edge cannot read the file at all (too large, or gone). */
  reachable: boolean;
}

/**
 * Understanding with Workers AI: Whisper on audio and a vision model on one frame per segment,
 * both cut out at the edge by Media Transformations, plus the file's own text tracks and tags.
 * Whatever the edge or a model could not deliver is left out and named in `limitations`.
 */
export class WorkersAiMediaUnderstanding implements MediaUnderstanding {
  private readonly limits: EdgeLimits;

  constructor(private readonly deps: WorkersAiDependencies) {
    this.limits = { ...DEFAULT_EDGE_LIMITS, ...deps.limits };
  }

  async understand(input: UnderstandInput): Promise<VideoUnderstanding> {
    const { probe } = input;
    const run: Run = {
      input,
      notes: new Set(),
      reachable: input.source.size <= this.limits.maxInputBytes,
      open: async () => (await this.deps.bucket.get(input.objectKey))?.body ?? null,
    };
    if (!run.reachable) run.notes.add("input-too-large-for-edge");

    const captions = captionSpans(probe);
    const speech = await this.transcribe(run);
    const bounds = planSegments({
      duration: probe.duration,
      keyframes: probe.keyframes,
      spans: [...captions.spans, ...speech.spans],
    });
    const { scenes, firstFrame } = await this.describeFrames(run, bounds);

    const built = assemble({
      input,
      bounds,
      captions,
      speech: speech.spans,
      scenes,
      frameThumbnail: firstFrame,
      emptyNote: "No captions, recognised speech or frame description for this segment",
      detectedTags: [...scenes.values()].flatMap((s) => s.tags),
      speechLanguages: speech.languages,
    });
    const notes = run.notes;
    if (speech.heard === 0) notes.add("no-speech-recognition");
    if (scenes.size === 0) notes.add("no-visual-analysis");
    // One frame per segment is a sample: text or objects between samples were never seen.
    notes.add(scenes.size > 0 ? "ocr-sampled-frames-only" : "no-ocr");
    if (scenes.size > 0) notes.add("scene-sampled-one-frame-per-segment");

    // OCR reads the same sampled frames the scene descriptions come from.
    const frames = frameExtent(bounds, new Set(scenes.keys()), probe.duration);
    const extent = {
      transcript: [
        ...captionExtents(probe, captions),
        ...speechExtents(speech.chunks, probe.duration),
      ],
      scene: frames,
      ocr: frames,
    };
    return {
      engine: WORKERS_AI_ENGINE_ID,
      segments: built.segments,
      tags: built.tags,
      title: built.title,
      description: built.description,
      thumbnail: built.thumbnail,
      coverage: {
        transcript: transcriptComplete(extent),
        ocr: frames.share >= COMPLETE_SHARE,
        scene: frames.share >= COMPLETE_SHARE,
        metadata: built.hasMetadata,
      },
      extent,
      limitations: finalLimitations([...built.limitations, ...notes]),
    };
  }

  /** Whisper over the reachable audio, chunk by chunk; `complete` only if all of it was heard. */
  private async transcribe(run: Run): Promise<{
    spans: TimedText[];
    languages: string[];
    heard: number;
    chunks: { seconds: number; language: string | null }[];
  }> {
    const { probe } = run.input;
    if (!probe.audio) run.notes.add("no-audio-track");
    if (!probe.audio || !run.reachable) {
      return { spans: [], languages: [], heard: 0, chunks: [] };
    }

    const { chunks, reach } = planAudioChunks(probe.duration, this.limits);
    if (reach < probe.duration) run.notes.add("audio-out-of-reach");
    const results = await mapLimit(chunks, this.limits.concurrency, async (chunk) => {
      if (!run.reachable) return null;
      const audio = await this.attempt(run, "audio-extraction-failed", () =>
        extractAudio(this.deps.media, run.open, chunk),
      );
      if (!audio) return null;
      const raw = await this.attempt(run, "speech-recognition-failed", () =>
        this.deps.ai.run(WHISPER_MODEL, whisperInput(toBase64(audio.value))),
      );
      if (!raw) return null;
      const parsed = parseWhisper(raw.value, chunk);
      if (parsed.malformed) run.notes.add("speech-output-malformed");
      return { ...parsed, chunk };
    });
    const heard = results.filter((r) => r !== null);
    return {
      spans: heard.flatMap((r) => r.spans),
      languages: unique(heard.map((r) => r.language)),
      heard: heard.length,
      // Audio seconds transcribed: a chunk whose output was malformed in part is not counted.
      chunks: heard
        .filter((r) => !r.malformed)
        .map((r) => ({ seconds: r.chunk.length, language: r.language })),
    };
  }

  /** One frame per reachable segment, described in batches; frames are dropped once described. */
  private async describeFrames(
    run: Run,
    bounds: readonly TimeRange[],
  ): Promise<{ scenes: Map<number, FrameScene>; firstFrame: FrameImage | null }> {
    const scenes = new Map<number, FrameScene>();
    let firstFrame: FrameImage | null = null;
    if (!run.input.probe.video) run.notes.add("no-video-track");
    if (!run.input.probe.video || !run.reachable) return { scenes, firstFrame };

    const wanted = bounds
      .map((range, index) => ({ index, time: frameTimeFor(range) }))
      .filter((f) => f.time <= this.limits.maxSeekSeconds);
    if (wanted.length < bounds.length) run.notes.add("frames-out-of-reach");

    const size = Math.max(1, Math.floor(this.limits.framesPerVisionCall));
    for (let i = 0; i < wanted.length && run.reachable; i += size) {
      const batch = wanted.slice(i, i + size);
      const frames = await mapLimit(batch, this.limits.concurrency, (f) =>
        this.attempt(run, "frame-extraction-failed", () =>
          extractFrame(this.deps.media, run.open, f.time, this.limits),
        ),
      );
      const got = batch.flatMap((f, k) => {
        const image = frames[k]?.value;
        return image ? [{ index: f.index, image }] : [];
      });
      firstFrame ??= got[0]?.image ?? null;
      if (got.length === 0) continue;

      const uris = got.map((g) => `data:${g.image.contentType};base64,${toBase64(g.image.bytes)}`);
      const raw = await this.attempt(run, "vision-failed", () =>
        this.deps.ai.run(VISION_MODEL, visionInput(uris)),
      );
      if (!raw) continue;
      const parsed = parseVision(raw.value, got.length);
      if (parsed.malformed) run.notes.add("vision-output-malformed");
      got.forEach((g, k) => {
        const seen = parsed.frames.get(k);
        if (seen) scenes.set(g.index, { time: g.image.time, ...seen, source: "vision" });
      });
    }
    return { scenes, firstFrame };
  }

  /** Runs one edge or model call; a failure becomes a limitation instead of an invented result. */
  private async attempt<T>(
    run: Run,
    failure: string,
    call: () => Promise<T>,
  ): Promise<{ value: T } | null> {
    try {
      return { value: await call() };
    } catch (error) {
      if (error instanceof SourceMissingError) {
        run.reachable = false;
        run.notes.add("source-unavailable");
      } else {
        run.notes.add(failure);
      }
      return null;
    }
  }
}
