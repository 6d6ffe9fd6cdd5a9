import { assemble, finalLimitations } from "./assemble";
import { captionExtents, kindExtent, transcriptComplete } from "./extent";
import type {
  MediaUnderstanding,
  PlannedWindow,
  UnderstandInput,
  VideoUnderstanding,
} from "./port";
import { planSegments } from "./segmenter";
import { captionSpans } from "./timed-text";

/** Engine id of the local adapter; bump the suffix when its output rules change. */
export const LOCAL_ENGINE_ID = "local-media@2";

/**
 * Understanding from the file alone: text tracks as transcript, container tags as metadata,
 * cover art or a generated poster as thumbnail. It never looks at pictures or sound, and says so.
 */
export class LocalMediaUnderstanding implements MediaUnderstanding {
  readonly engine = LOCAL_ENGINE_ID;

  /** Everything comes from the probe: there is nothing to fan out. */
  plan(): PlannedWindow[] {
    return [];
  }

  understandWindow(): Promise<unknown> {
    return Promise.reject(new Error("the local engine plans no windows"));
  }

  abandoned(): unknown {
    throw new Error("the local engine plans no windows");
  }

  async assemble(input: UnderstandInput): Promise<VideoUnderstanding> {
    const { probe } = input;
    const captions = captionSpans(probe);
    const bounds = planSegments({
      duration: probe.duration,
      keyframes: probe.keyframes,
      spans: captions.spans,
    });
    const built = assemble({
      input,
      bounds,
      captions,
      speech: [],
      scenes: [],
      frameThumbnail: null,
      emptyNote: "No timed text in this segment",
      detectedTags: [],
      speechLanguages: [],
    });
    const extent = {
      transcript: captionExtents(probe, captions),
      scene: kindExtent(0, probe.duration),
      ocr: kindExtent(0, probe.duration),
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
        ocr: false,
        scene: false,
        metadata: built.hasMetadata,
      },
      extent,
      limitations: finalLimitations([
        ...built.limitations,
        "no-speech-recognition",
        "no-visual-analysis",
        "no-ocr",
      ]),
    };
  }
}
