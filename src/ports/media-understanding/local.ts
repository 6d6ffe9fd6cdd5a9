import { COMPLETE_SHARE } from "../../domain/evidence";
import type { ScreenReader } from "../screen-reader/port";
import { assemble, type FrameText, finalLimitations } from "./assemble";
import type { ByteBudget } from "./byte-budget";
import { openCutter } from "./cut";
import { captionExtents, kindExtent, seenExtent, transcriptComplete } from "./extent";
import type { FrameStore } from "./frames-window";
import type {
  MediaUnderstanding,
  PlannedWindow,
  UnderstandInput,
  VideoUnderstanding,
  WindowOutcomes,
  WindowParts,
} from "./port";
import { confidentLines } from "./screen-text";
import {
  type ReadFrame,
  readScreens,
  type ScreenResult,
  ScreenResultSchema,
} from "./screen-window";
import { planSegments } from "./segmenter";
import { captionSpans } from "./timed-text";
import {
  DEFAULT_WINDOW_SETTINGS,
  FramesPlanSchema,
  planWindows,
  type WindowSettings,
} from "./windows";

/** Engine id of the local adapter; bump the suffix when its output rules change. */
export const LOCAL_ENGINE_ID = "local-media@3";

/** What the local adapter reads frames with; without a reader it reads the file's text only. */
export interface LocalDependencies {
  reader: ScreenReader;
  frames: FrameStore;
  settings?: Partial<WindowSettings>;
  cutBudget?: ByteBudget;
}

/**
 * Frames are read two at a time: the screen reader reads one while the next is cut and
 * decoded (its OCR already spreads one frame over every core).
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

  /** Whether on-screen text is read: a screen reader runs. */
  get readsScreen(): boolean {
    return this.deps !== null;
  }

  /** One frames window per 8 frames when a screen reader runs; none otherwise. */
  plan(input: UnderstandInput): PlannedWindow[] {
    if (this.deps === null) return [];
    return planWindows({ ...input.probe, audio: null }, this.settings);
  }

  async understandWindow(
    input: UnderstandInput,
    window: PlannedWindow,
    parts?: WindowParts,
  ): Promise<unknown> {
    if (this.deps === null || window.kind !== "frames")
      throw new Error("the local engine plans frames windows only, and only with a screen reader");
    const { scope } = input;
    const open = () => openCutter(input.source, input.objectKey, input.clusterIndex);
    const cutter = scope ? scope.getOrOpen(`cutter:${input.objectKey}`, open) : open();
    try {
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

  abandoned(): unknown {
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
    let thumbnailKept = false;
    for await (const w of windows) {
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
    const bounds = planSegments({
      duration: probe.duration,
      keyframes: probe.keyframes,
      spans: captions.spans,
    });
    const frameThumbnail =
      thumbnailKept && this.deps ? await this.deps.frames.get(input.videoId) : null;
    const built = assemble({
      input,
      bounds,
      captions,
      speech: [],
      scenes: [],
      screens,
      frameThumbnail,
      emptyNote:
        screens.length > 0
          ? "No timed text or on-screen text in this segment"
          : "No timed text in this segment",
      detectedTags: [],
      speechLanguages: [],
    });
    if (this.deps === null) notes.add("screen-reader-not-running");
    if (read.length === 0) notes.add("no-ocr");
    // Frames read and none held text: inspected, so a negative rests on them, but not seen.
    else if (screens.every((screen) => screen.lines.length === 0)) notes.add("no-text-on-screen");
    const ocr = seenExtent(read, probe.duration);
    const extent = {
      transcript: captionExtents(probe, captions),
      scene: kindExtent(0, probe.duration),
      ocr,
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
      limitations: finalLimitations([
        ...built.limitations,
        ...notes,
        "no-speech-recognition",
        "no-visual-analysis",
      ]),
    };
  }
}
