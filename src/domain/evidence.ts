/**
 * Kinds of evidence a segment can carry (the spec's Finding section: transcript, OCR, scene,
 * thumbnail).
 */
export type EvidenceKind = "transcript" | "ocr" | "scene" | "thumbnail" | "metadata";

/** A span of the video that supports what a segment says. Times in seconds. */
export interface EvidenceSpan {
  kind: EvidenceKind;
  start: number;
  end: number;
  /** The text the span holds (the cue, the OCR line, the description). */
  text: string;
  /** Where it came from, e.g. `text-track:0`, `container-tags`, `whisper`, `vision`. */
  source: string;
}

/** Which kinds of evidence the engine actually extracted for the whole video. */
export interface ExtractionCoverage {
  transcript: boolean;
  ocr: boolean;
  scene: boolean;
  metadata: boolean;
}

/**
 * Why a read withholds text or a link it would otherwise show: the video it came from was
 * deleted. Stored records keep what they held; every read leaves it out.
 */
export type Redaction = "source_deleted";

/** One span of a segment that an answer cites. Times in seconds. */
export interface EvidenceRef {
  /** Stable id: `evidence_` + a hash of (segment id, kind, start, end). */
  evidence_id: string;
  video_id: string;
  segment_id: string;
  kind: EvidenceKind;
  start_time: number;
  end_time: number;
  /** The words or description the span holds. */
  text: string;
  /** Set on reads when the span's video was deleted: `text` is a marker, and no clip is linked. */
  redacted?: Redaction;
}

/** "Answer evidence summary" of the spec's Answer section. */
export interface EvidenceSummary {
  contributing_count: number;
  drill_down_path: string;
  precision: "exact" | "limited" | "unknown";
  representative: EvidenceRef[];
}

/** Share of a video's duration an extraction must inspect before an absence there counts. */
export const COMPLETE_SHARE = 0.95;

/** How much of the video one source of transcript text inspected, and in which language. */
export interface TextExtent {
  /** `captions`: a text track (its cue span); `speech`: audio transcribed by speech to text. */
  origin: "captions" | "speech";
  /** Evidence source of its spans, e.g. `text-track:0:eng`, `whisper`. */
  source: string;
  /** ISO 639-1 where known (tagged, or detected from the text); null when it cannot be told. */
  language: string | null;
  /** Seconds of the video it inspected, and their share of the duration (0-1). */
  seconds: number;
  share: number;
}

/** Seconds of the video a kind of evidence inspected, and their share of the duration (0-1). */
export interface KindExtent {
  seconds: number;
  share: number;
}

/**
 * Where a voice-activity detector found speech, whether or not it was transcribed: the audio
 * it inspected and the stretches with speech in it (docs/media-understanding.md, Speech spans).
 */
export interface SpeechPresence {
  /** The detector, e.g. `silero-vad@5`. */
  source: string;
  /** Seconds of audio inspected, and their share of the duration. */
  inspected: KindExtent;
  /** Seconds with speech in them (the spans' total). */
  speech_seconds: number;
  /** The stretches with speech, in seconds, merged, in time order. */
  spans: { start: number; end: number }[];
}

/** What each evidence kind actually inspected, measured (docs/media-understanding.md). */
export interface ExtractionExtent {
  transcript: TextExtent[];
  scene: KindExtent;
  ocr: KindExtent;
  /** Local adapters with a speech detector only; absent where none ran. */
  speech?: SpeechPresence;
}
