import type { ExtractionExtent, TextExtent } from "../domain/evidence";
import { baseLanguage } from "../lib/text/language";
import type { EngineVideo } from "./types";

// `text-track:0:eng`, `captions-uploaded:en-GB`, `whisper:en`: the language tag a source
// carries, if any.
function sourceLanguage(source: string): string | null {
  const tag = /^(?:text-track:\d+|captions-uploaded|whisper):([A-Za-z0-9-]+)$/.exec(source)?.[1];
  return tag ? baseLanguage(tag) : null;
}

/** The language of a transcript source of the video (its extent's, else its tag), or null. */
export function transcriptLanguage(video: EngineVideo, source: string): string | null {
  const measured = video.extent?.transcript.find((t) => t.source === source)?.language;
  return measured ?? sourceLanguage(source);
}

/**
 * The measured extent of a video; for one indexed before extents were recorded, read from its
 * `coverage` flags (a flag meant the whole video) with languages from its transcript spans.
 */
export function extentOf(video: EngineVideo): ExtractionExtent {
  if (video.extent) return video.extent;
  const whole = (flag: boolean) => ({ seconds: flag ? video.duration : 0, share: flag ? 1 : 0 });
  const sources = new Set(
    video.segments.flatMap((s) =>
      s.evidence.filter((e) => e.kind === "transcript").map((e) => e.source),
    ),
  );
  const transcript: TextExtent[] = video.coverage.transcript
    ? [...sources].map((source) => ({
        origin: source.startsWith("whisper") ? "speech" : "captions",
        source,
        language: sourceLanguage(source),
        ...whole(true),
      }))
    : [];
  return { transcript, scene: whole(video.coverage.scene), ocr: whole(video.coverage.ocr) };
}
