import { COMPLETE_SHARE } from "../../domain/evidence";
import type { MediaBindingLike } from "../../env";
import { type CallEnvironment, callModel, classifyModelError } from "../ai/model-calls";
import { assemble, type FrameImage, type FrameScene, finalLimitations } from "./assemble";
import { type ByteBudget, isolateCutBudget } from "./byte-budget";
import { type Cutter, openCutter, UncuttableError } from "./cut";
import { extractFrame, mapLimit, toBase64 } from "./edge-media";
import { captionExtents, seenExtent, speechExtents, transcriptComplete } from "./extent";
import {
  type AiLike,
  parseVision,
  parseWhisper,
  VISION_MODEL,
  visionInput,
  WHISPER_MODEL,
  whisperInput,
} from "./model-outputs";
import type {
  MediaUnderstanding,
  PlannedWindow,
  UnderstandInput,
  VideoUnderstanding,
  WindowOutcome,
} from "./port";
import { type RefusedStep, withRefusal } from "./refusals";
import { planSegments } from "./segmenter";
import { speechLanguage } from "./speech-language";
import { unique } from "./tags";
import { captionSpans } from "./timed-text";
import {
  type AudioPlan,
  AudioPlanSchema,
  type AudioResult,
  AudioResultSchema,
  DEFAULT_WINDOW_SETTINGS,
  type FramesPlan,
  FramesPlanSchema,
  type FramesResult,
  FramesResultSchema,
  planWindows,
  standsFor,
  type WindowSettings,
} from "./windows";

/** Engine id of the production adapter; bump the suffix when models or rules change. */
export const WORKERS_AI_ENGINE_ID = "workers-ai@4";

/** Where the frame chosen as thumbnail is kept between the window that took it and assembly. */
export interface FrameStore {
  put(videoId: string, frame: FrameImage): Promise<void>;
  get(videoId: string): Promise<FrameImage | null>;
}

/** What the production adapter needs, passed once when the ports are built. */
export interface WorkersAiDependencies {
  /** The AI binding, paced and retried (`pacedAi`): a TransientModelError means "later". */
  ai: AiLike;
  media: MediaBindingLike;
  frames: FrameStore;
  settings?: Partial<WindowSettings>;
  /** How Media Transformations calls are retried on transient failures (tests shorten it). */
  mediaRetries?: CallEnvironment;
  /** Bytes of frame cuts held at once (the isolate's shared budget unless given one). */
  cutBudget?: ByteBudget;
}

/**
 * Understanding with Workers AI over the whole video: audio is cut into windows (copied
 * without decoding, by ranged reads) and heard by Whisper; one frame per sampling interval is
 * cut out as a tiny file, extracted by Media Transformations and described by a vision model;
 * the file's own text tracks and tags are used as they are. Whatever cannot be extracted for
 * good is left out and named in `limitations`; a transient failure is thrown, to be retried.
 */
export class WorkersAiMediaUnderstanding implements MediaUnderstanding {
  readonly engine = WORKERS_AI_ENGINE_ID;
  private readonly settings: WindowSettings;

  constructor(private readonly deps: WorkersAiDependencies) {
    this.settings = { ...DEFAULT_WINDOW_SETTINGS, ...deps.settings };
  }

  plan(input: UnderstandInput): PlannedWindow[] {
    return planWindows(input.probe, this.settings);
  }

  async understandWindow(input: UnderstandInput, window: PlannedWindow): Promise<unknown> {
    const { scope } = input;
    // Windows of one video in one invocation share the opened source: its index is read once.
    const open = () => openCutter(input.source, input.objectKey, input.clusterIndex);
    const cutter = scope ? scope.getOrOpen(`cutter:${input.objectKey}`, open) : open();
    try {
      const { audio, video } = input.probe;
      return window.kind === "audio"
        ? await this.hear(cutter, AudioPlanSchema.parse(window.plan), {
            language: speechLanguage(input.probe),
            codec: audio?.codec ?? null,
          })
        : await this.look(cutter, input.videoId, FramesPlanSchema.parse(window.plan), {
            codec: video?.codec ?? null,
          });
    } finally {
      if (!scope) cutter.dispose();
    }
  }

  abandoned(window: PlannedWindow): unknown {
    if (window.kind === "audio") {
      return {
        spans: [],
        language: null,
        heard: 0,
        notes: ["speech-recognition-unavailable"],
      } satisfies AudioResult;
    }
    return { frames: [], thumbnail: null, notes: ["vision-unavailable"] } satisfies FramesResult;
  }

  /** One audio window: cut, heard in `language` (null: detected), validated. */
  private async hear(
    cutter: Cutter,
    plan: AudioPlan,
    { language, codec }: { language: string | null; codec: string | null },
  ): Promise<AudioResult> {
    const failed = (note: string, step: RefusedStep, error: unknown): AudioResult => ({
      spans: [],
      language: null,
      heard: 0,
      notes: withRefusal(note, step, error, codec),
    });
    const cut = await permanent(() => cutter.audio(plan.start, plan.end));
    if (!cut.ok) return failed("audio-extraction-failed", "cut", cut.error);
    if (cut.value === null) return { spans: [], language: null, heard: 0, notes: [] };
    const audio = cut.value;
    const raw = await permanent(() =>
      this.deps.ai.run(WHISPER_MODEL, whisperInput(toBase64(audio.bytes), language)),
    );
    if (!raw.ok) return failed("speech-recognition-failed", "speech", raw.error);
    const chunk = { start: audio.start, length: audio.end - audio.start };
    const parsed = parseWhisper(raw.value, chunk, language);
    return {
      spans: parsed.spans,
      language: parsed.language,
      // Heard: a window in which speech was recognised. One whose output was malformed in
      // part counts nothing, and one without speech (silence, noise) no speech seconds.
      heard: parsed.malformed || parsed.spans.length === 0 ? 0 : plan.end - plan.start,
      notes: parsed.malformed ? ["speech-output-malformed"] : [],
    };
  }

  /**
   * One frames window: each frame cut, extracted and described, frame by frame (a cut's bytes
   * are held against the isolate's budget only until its frame is extracted, and a window's
   * calls keep the rate busy rather than waiting on a whole phase); the first frame extracted
   * may be kept as the thumbnail.
   */
  private async look(
    cutter: Cutter,
    videoId: string,
    plan: FramesPlan,
    { codec }: { codec: string | null },
  ): Promise<FramesResult> {
    const s = this.settings;
    const notes = new Set<string>();
    const fail = (note: string, step: RefusedStep, error: unknown) => {
      for (const n of withRefusal(note, step, error, codec)) notes.add(n);
    };
    const looked = await mapLimit(plan.cells, s.concurrency, async (cell) => {
      const extracted = await this.extract(cutter, cell.at);
      if (extracted !== "none" && !extracted.ok)
        fail("frame-extraction-failed", extracted.step, extracted.error);
      if (extracted === "none" || !extracted.ok) return null;
      const image = extracted.value;
      const uri = `data:${image.contentType};base64,${toBase64(image.bytes)}`;
      const raw = await permanent(() => this.deps.ai.run(VISION_MODEL, visionInput([uri])));
      if (!raw.ok) {
        fail("vision-failed", "vision", raw.error);
        return { image, seen: null };
      }
      const parsed = parseVision(raw.value, 1);
      if (parsed.malformed) notes.add("vision-output-malformed");
      const seen = parsed.frames.get(0);
      const stretch = standsFor(cell, image.time, s.frameIntervalSeconds);
      return { image, seen: seen && stretch ? { time: image.time, ...stretch, ...seen } : null };
    });
    const first = looked.find((l) => l !== null)?.image;
    let thumbnail: FramesResult["thumbnail"] = null;
    if (plan.thumbnail && first) {
      await this.deps.frames.put(videoId, first);
      thumbnail = { time: first.time, contentType: first.contentType };
    }
    const frames = looked.flatMap((l) => (l?.seen ? [l.seen] : []));
    return { frames, thumbnail, notes: [...notes] };
  }

  /**
   * The frame at `time`, cut and extracted while its cut's bytes are held against the budget;
   * the cut is let go before the frame is described. "none" when the source has no video.
   */
  private async extract(
    cutter: Cutter,
    time: number,
  ): Promise<
    "none" | { ok: true; value: FrameImage } | { ok: false; error: unknown; step: RefusedStep }
  > {
    const s = this.settings;
    const limits = { maxOffset: s.maxFrameOffsetSeconds, maxBytes: s.maxInputBytes };
    const span = await permanent(() => cutter.frameSpan(time, limits));
    if (!span.ok) return { ...span, step: "cut" };
    if (span.value === null) return "none";
    const found = span.value;
    return (this.deps.cutBudget ?? isolateCutBudget).use(found.bytes, async () => {
      const cut = await permanent(() => cutter.cutFrame(found));
      if (!cut.ok) return { ...cut, step: "cut" as const };
      const frame = await permanent(() =>
        callModel(this.deps.mediaRetries ?? {}, "media-transformations", () =>
          extractFrame(this.deps.media, cut.value, s.frameBoxPixels),
        ),
      );
      return frame.ok ? frame : { ...frame, step: "frame" as const };
    });
  }

  async assemble(
    input: UnderstandInput,
    windows: readonly WindowOutcome[],
  ): Promise<VideoUnderstanding> {
    const { probe } = input;
    const heard: AudioResult[] = [];
    const looked: FramesResult[] = [];
    for (const w of windows) {
      if (w.kind === "audio") heard.push(AudioResultSchema.parse(w.result));
      else looked.push(FramesResultSchema.parse(w.result));
    }
    const notes = new Set([...heard, ...looked].flatMap((r) => r.notes));
    if (!probe.audio) notes.add("no-audio-track");
    if (!probe.video) notes.add("no-video-track");

    const captions = captionSpans(probe);
    const speech = heard.flatMap((r) => r.spans);
    const bounds = planSegments({
      duration: probe.duration,
      keyframes: probe.keyframes,
      spans: [...captions.spans, ...speech],
    });
    const frames = looked.flatMap((r) => r.frames);
    const scenes: FrameScene[] = frames.map((f) => ({ ...f, source: "vision" }));
    const kept = looked.find((r) => r.thumbnail !== null)?.thumbnail;
    const frameThumbnail = kept ? await this.deps.frames.get(input.videoId) : null;
    const built = assemble({
      input,
      bounds,
      captions,
      speech,
      scenes,
      frameThumbnail,
      emptyNote: "No captions, recognised speech or frame description for this segment",
      detectedTags: frames.flatMap((f) => f.tags),
      speechLanguages: unique(heard.flatMap((r) => (r.language ? [r.language] : []))),
    });
    const heardSeconds = heard.reduce((sum, r) => sum + r.heard, 0);
    if (probe.audio && heardSeconds === 0) notes.add("no-speech-recognition");
    if (frames.length === 0) notes.add("no-visual-analysis");
    if (frames.length === 0) notes.add("no-ocr");

    const seen = seenExtent(frames, probe.duration);
    const extent = {
      transcript: [
        ...captionExtents(probe, captions),
        ...speechExtents(
          heard.filter((r) => r.heard > 0).map((r) => ({ seconds: r.heard, language: r.language })),
          probe.duration,
        ),
      ],
      scene: seen,
      // On-screen text is read from the same frames the scenes come from.
      ocr: seen,
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
        ocr: seen.share >= COMPLETE_SHARE,
        scene: seen.share >= COMPLETE_SHARE,
        metadata: built.hasMetadata,
      },
      extent,
      limitations: finalLimitations([...built.limitations, ...notes]),
    };
  }
}

/**
 * Runs one media or model step. A failure that can pass (a model still failing at its
 * deadline, storage or the edge unavailable) is thrown on, so the window is tried again later;
 * a failure for good (a codec that cannot be cut, input a model refuses) is answered as
 * `ok: false`, to be named as a limitation instead of inventing a result.
 */
async function permanent<T>(
  call: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (!(error instanceof UncuttableError) && classifyModelError(error).transient) throw error;
    console.error(JSON.stringify({ media_step_failed: String(error) }));
    return { ok: false, error };
  }
}
