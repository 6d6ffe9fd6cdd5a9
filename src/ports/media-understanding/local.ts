import { COMPLETE_SHARE } from "../../domain/evidence";
import { openCutter } from "../../media/cut";
import { assemble, type FrameText, finalLimitations } from "../../media-understanding/assemble";
import {
  captionExtents,
  kindExtent,
  seenExtent,
  speechExtents,
  transcriptComplete,
} from "../../media-understanding/measure-extent";
import { confidentLines } from "../../media-understanding/screen-text";
import { planSegments } from "../../media-understanding/segmenter";
import { captionSpans } from "../../media-understanding/timed-text";
import {
  AudioPlanSchema,
  DEFAULT_WINDOW_SETTINGS,
  FramesPlanSchema,
  planWindows,
  type WindowSettings,
} from "../../media-understanding/windows";
import type { ScreenReader, SpeechSpans } from "../screen-reader/port";
import type { ByteBudget } from "./byte-budget";
import type { FrameStore } from "./frames-window";
import type {
  MediaUnderstanding,
  PlannedWindow,
  UnderstandInput,
  VideoUnderstanding,
  WindowOutcomes,
  WindowParts,
} from "./port";
import {
  type ReadFrame,
  readScreens,
  type ScreenResult,
  ScreenResultSchema,
} from "./screen-window";
import {
  type HeardResult,
  HeardResultSchema,
  hearWindow,
  mergeSpans,
  unheard,
} from "./speech-window";

/** Engine id of the local adapter; bump the suffix when its output rules change. */
export const LOCAL_ENGINE_ID = "local-media@4";

/** What the local adapter reads frames with; without a reader it reads the file's text only. */
export interface LocalDependencies {
  reader: ScreenReader;
  frames: FrameStore;
  /** Finds speech in the audio (and transcribes it, with WHISPER_URL); absent, audio is not heard. */
  speech?: SpeechSpans;
  settings?: Partial<WindowSettings>;
  cutBudget?: ByteBudget;
}

/**
 * Frames are read two at a time: the screen reader's OCR pool reads one frame per core, at
 * most two side by side (screen-reader/ocr-pool.mjs).
 */
const LOCAL_SETTINGS: Partial<WindowSettings> = { concurrency: 2 };

/**
 * Understanding without a model service: text tracks as transcript, container tags as
 * metadata, and, with a screen reader, the on-screen text of one frame per 4 s (the first
 * frame as thumbnail; else cover art or a generated poster). It never hears speech or
 * describes pictures, and says so.
 */
export class LocalMediaUnderstanding implements MediaUnderstanding {
  readonly engine = LOCAL_ENGINE_ID;
  private readonly settings: WindowSettings;

  constructor(private readonly deps: LocalDependencies | null = null) {
    this.settings = { ...DEFAULT_WINDOW_SETTINGS, ...LOCAL_SETTINGS, ...deps?.settings };
  }

  /** Whether speech is transcribed: the screen reader finds speech and sends it to Whisper. */
  get transcribes(): boolean {
    return this.deps?.speech?.transcribes === true;
  }

  /** Whether on-screen text is read: a screen reader runs. */
  get readsScreen(): boolean {
    return this.deps !== null;
  }

  /**
   * One frames window per 8 frames when a screen reader runs, and one audio window per 30 s
   * when it also finds speech; none otherwise.
   */
  plan(input: UnderstandInput): PlannedWindow[] {
    if (this.deps === null) return [];
    const audio = this.deps.speech ? input.probe.audio : null;
    return planWindows({ ...input.probe, audio }, this.settings);
  }

  async understandWindow(
    input: UnderstandInput,
    window: PlannedWindow,
    parts?: WindowParts,
  ): Promise<unknown> {
    const speech = this.deps?.speech;
    if (this.deps === null || (window.kind === "audio" && !speech))
      throw new Error("the local engine plans windows only with a screen reader");
    const { scope } = input;
    const open = () => openCutter(input.source, input.objectKey, input.clusterIndex);
    const cutter = scope ? scope.getOrOpen(`cutter:${input.objectKey}`, open) : open();
    try {
      if (window.kind === "audio" && speech)
        return await hearWindow(speech, cutter, AudioPlanSchema.parse(window.plan), input.log);
      return await readScreens(
        { ...this.deps, settings: this.settings, log: input.log },
        cutter,
        input.videoId,
        FramesPlanSchema.parse(window.plan),
        { parts, codec: input.probe.video?.codec ?? null },
      );
    } finally {
      if (!scope) cutter.dispose();
    }
  }

  abandoned(window: PlannedWindow): unknown {
    if (window.kind === "audio") return unheard("speech-detection-unavailable");
    return {
      frames: [],
      thumbnail: null,
      notes: ["screen-reader-unavailable"],
    } satisfies ScreenResult;
  }

  async assemble(
    input: UnderstandInput,
    windows: WindowOutcomes = [],
  ): Promise<VideoUnderstanding> {
    const { probe } = input;
    const notes = new Set<string>();
    const read: ReadFrame[] = [];
    const heard: HeardResult[] = [];
    let thumbnailKept = false;
    for await (const w of windows) {
      if (w.kind === "audio") {
        const result = HeardResultSchema.parse(w.result);
        for (const note of result.notes) notes.add(note);
        heard.push(result);
        continue;
      }
      const result = ScreenResultSchema.parse(w.result);
      for (const note of result.notes) notes.add(note);
      for (const frame of result.frames) read.push(frame);
      thumbnailKept ||= result.thumbnail !== null;
    }
    const source = this.deps?.reader.engine ?? "";
    const screens: FrameText[] = read.map((f) => ({
      time: f.time,
      lines: confidentLines(f.lines),
      source,
    }));
    const captions = captionSpans(probe);
    const speech = heard.flatMap((h) => h.transcript);
    const bounds = planSegments({
      duration: probe.duration,
      keyframes: probe.keyframes,
      spans: [...captions.spans, ...speech],
    });
    const frameThumbnail =
      thumbnailKept && this.deps ? await this.deps.frames.get(input.videoId) : null;
    const built = assemble({
      input,
      bounds,
      captions,
      speech,
      scenes: [],
      screens,
      frameThumbnail,
      emptyNote:
        screens.length > 0
          ? "No timed text or on-screen text in this segment"
          : "No timed text in this segment",
      detectedTags: [],
      speechLanguages: [...new Set(heard.flatMap((h) => (h.language ? [h.language] : [])))],
    });
    if (this.deps === null) notes.add("screen-reader-not-running");
    const presence =
      this.deps?.speech && probe.audio
        ? speechPresence(this.deps.speech.engine, heard, probe.duration)
        : undefined;
    const transcribed = heard.filter((h) => h.heard > 0);
    if (transcribed.length === 0) notes.add("no-speech-recognition");
    if (read.length === 0) notes.add("no-ocr");
    // Frames read and none held text: inspected, so a negative rests on them, but not seen.
    else if (screens.every((screen) => screen.lines.length === 0)) notes.add("no-text-on-screen");
    const ocr = seenExtent(read, probe.duration);
    const extent = {
      transcript: [
        ...captionExtents(probe, captions),
        ...speechExtents(
          transcribed.map((h) => ({ seconds: h.heard, language: h.language })),
          probe.duration,
        ),
      ],
      scene: kindExtent(0, probe.duration),
      ocr,
      ...(presence ? { speech: presence } : {}),
    };
    return {
      engine: LOCAL_ENGINE_ID,
      segments: built.segments,
      tags: built.tags,
      title: built.title,
      description: built.description,
      thumbnail: built.thumbnail,
      coverage: {
        transcript: transcriptComplete(extent),
        ocr: ocr.share >= COMPLETE_SHARE,
        scene: false,
        metadata: built.hasMetadata,
      },
      extent,
      limitations: finalLimitations([...built.limitations, ...notes, "no-visual-analysis"]),
    };
  }
}

/** Where the windows found speech: the audio they inspected and the merged spans. */
function speechPresence(source: string, heard: readonly HeardResult[], duration: number) {
  const spans = mergeSpans(heard.flatMap((h) => h.speech));
  const seconds = spans.reduce((sum, [s, e]) => sum + (e - s), 0);
  const inspected = heard.reduce((sum, h) => sum + h.inspected, 0);
  return {
    source,
    inspected: kindExtent(inspected, duration),
    speech_seconds: Math.round(seconds * 1000) / 1000,
    spans: spans.map(([start, end]) => ({ start, end })),
  };
}
