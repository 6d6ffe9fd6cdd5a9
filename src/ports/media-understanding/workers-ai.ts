import { COMPLETE_SHARE } from "../../domain/evidence";
import type { MediaUsage } from "../../domain/usage";
import type { MediaBindingLike } from "../../env";
import type { Logger } from "../../lib/log";
import { type Cutter, openCutter } from "../../media/cut";
import { assemble, type FrameScene, finalLimitations } from "../../media-understanding/assemble";
import {
  captionExtents,
  seenExtent,
  speechExtents,
  transcriptComplete,
} from "../../media-understanding/measure-extent";
import { planSegments } from "../../media-understanding/segmenter";
import { speechLanguage } from "../../media-understanding/speech-language";
import { captionSpans } from "../../media-understanding/timed-text";
import { unique } from "../../media-understanding/video-tags";
import {
  type AudioPlan,
  AudioPlanSchema,
  type AudioResult,
  AudioResultSchema,
  DEFAULT_WINDOW_SETTINGS,
  FramesPlanSchema,
  type FramesResult,
  FramesResultSchema,
  planWindows,
  type SeenFrame,
  type WindowSettings,
} from "../../media-understanding/windows";
import type { CallEnvironment } from "../ai/model-calls";
import type { ByteBudget } from "./byte-budget";
import { toBase64 } from "./edge-media";
import { type FrameStore, lookAtFrames } from "./frames-window";
import {
  type AiLike,
  audioSeconds,
  parseWhisper,
  WHISPER_MODEL,
  whisperInput,
} from "./model-outputs";
import type {
  MediaUnderstanding,
  PlannedWindow,
  UnderstandInput,
  VideoUnderstanding,
  WindowOutcomes,
  WindowParts,
} from "./port";
import { type RefusedStep, withRefusal } from "./refusals";
import { permanent } from "./step-outcome";

/** Engine id of the production adapter; bump the suffix when models or rules change. */
export const WORKERS_AI_ENGINE_ID = "workers-ai@4";

export type { FrameStore } from "./frames-window";

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

  async understandWindow(
    input: UnderstandInput,
    window: PlannedWindow,
    parts?: WindowParts,
  ): Promise<unknown> {
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
            log: input.log,
          })
        : await lookAtFrames(
            { ...this.deps, settings: this.settings, log: input.log },
            cutter,
            input.videoId,
            FramesPlanSchema.parse(window.plan),
            { parts, codec: video?.codec ?? null },
          );
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
        usage: [],
      } satisfies AudioResult;
    }
    return {
      frames: [],
      thumbnail: null,
      notes: ["vision-unavailable"],
      usage: [],
    } satisfies FramesResult;
  }

  /**
   * What a window's result says it used: speech recognised (an audio window's `heard`), the
   * stretches its described frames stand for, and its model calls as they were answered.
   */
  usage(window: PlannedWindow, result: unknown): MediaUsage {
    if (window.kind === "audio") {
      const audio = AudioResultSchema.parse(result);
      return { heard_seconds: audio.heard, seen_seconds: 0, models: audio.usage };
    }
    const frames = FramesResultSchema.parse(result);
    const seen = seenExtent(frames.frames, Number.POSITIVE_INFINITY).seconds;
    return { heard_seconds: 0, seen_seconds: seen, models: frames.usage };
  }

  /** One audio window: cut, heard in `language` (null: detected), validated. */
  private async hear(
    cutter: Cutter,
    plan: AudioPlan,
    {
      language,
      codec,
      log,
    }: { language: string | null; codec: string | null; log: Logger | undefined },
  ): Promise<AudioResult> {
    const failed = (note: string, step: RefusedStep, error: unknown): AudioResult => ({
      spans: [],
      language: null,
      heard: 0,
      notes: withRefusal(note, step, error, codec),
      usage: [],
    });
    const cut = await permanent(() => cutter.audio(plan.start, plan.end), log);
    if (!cut.ok) return failed("audio-extraction-failed", "cut", cut.error);
    if (cut.value === null) return { spans: [], language: null, heard: 0, notes: [], usage: [] };
    const audio = cut.value;
    const raw = await permanent(
      () => this.deps.ai.run(WHISPER_MODEL, whisperInput(toBase64(audio.bytes), language)),
      log,
    );
    if (!raw.ok) return failed("speech-recognition-failed", "speech", raw.error);
    const chunk = { start: audio.start, length: audio.end - audio.start };
    const parsed = parseWhisper(raw.value, chunk, language);
    const usage = {
      model: WHISPER_MODEL,
      calls: 1,
      input_tokens: 0,
      output_tokens: 0,
      audio_seconds: audioSeconds(raw.value, chunk.length),
    };
    return {
      spans: parsed.spans,
      language: parsed.language,
      // Heard: a window in which speech was recognised. One whose output was malformed in
      // part counts nothing, and one without speech (silence, noise) no speech seconds.
      heard: parsed.malformed || parsed.spans.length === 0 ? 0 : plan.end - plan.start,
      notes: parsed.malformed ? ["speech-output-malformed"] : [],
      usage: [usage],
    };
  }

  async assemble(input: UnderstandInput, windows: WindowOutcomes): Promise<VideoUnderstanding> {
    const { probe } = input;
    // What the index is built from, taken from each window as it comes: a long video's
    // results are read page by page, never all at once.
    const notes = new Set<string>();
    const speech: AudioResult["spans"] = [];
    const heard: { seconds: number; language: string | null }[] = [];
    const languages: string[] = [];
    const frames: SeenFrame[] = [];
    let thumbnailKept = false;
    let heardSeconds = 0;
    for await (const w of windows) {
      if (w.kind === "audio") {
        const result = AudioResultSchema.parse(w.result);
        for (const note of result.notes) notes.add(note);
        for (const span of result.spans) speech.push(span);
        if (result.language) languages.push(result.language);
        if (result.heard > 0) heard.push({ seconds: result.heard, language: result.language });
        heardSeconds += result.heard;
      } else {
        const result = FramesResultSchema.parse(w.result);
        for (const note of result.notes) notes.add(note);
        for (const frame of result.frames) frames.push(frame);
        thumbnailKept ||= result.thumbnail !== null;
      }
    }
    if (!probe.audio) notes.add("no-audio-track");
    if (!probe.video) notes.add("no-video-track");

    const captions = captionSpans(probe);
    const bounds = planSegments({
      duration: probe.duration,
      keyframes: probe.keyframes,
      spans: [...captions.spans, ...speech],
    });
    const scenes: FrameScene[] = frames.map((f) => ({ ...f, source: "vision" }));
    const frameThumbnail = thumbnailKept ? await this.deps.frames.get(input.videoId) : null;
    const built = assemble({
      input,
      bounds,
      captions,
      speech,
      scenes,
      frameThumbnail,
      emptyNote: "No captions, recognised speech or frame description for this segment",
      detectedTags: frames.flatMap((f) => f.tags),
      speechLanguages: unique(languages),
    });
    if (probe.audio && heardSeconds === 0) notes.add("no-speech-recognition");
    if (frames.length === 0) notes.add("no-visual-analysis");
    if (frames.length === 0) notes.add("no-ocr");

    const seen = seenExtent(frames, probe.duration);
    const extent = {
      transcript: [...captionExtents(probe, captions), ...speechExtents(heard, probe.duration)],
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
