/** One line of on-screen text as read, with the reader's confidence in it (0-1). */
export interface ReadLine {
  text: string;
  confidence: number;
}

/** A frame as the reader decoded it (its picture, scaled down) and the lines read in it. */
export interface ScreenReading {
  frame: { contentType: string; bytes: Uint8Array };
  lines: ReadLine[];
}

/** A few frames of a video copied into a file of their own, and where the wanted one sits. */
export interface CutToRead {
  bytes: Uint8Array;
  /** Whole seconds from the cut's start to the frame to read. */
  offset: number;
  /** Source time of that frame, in seconds. */
  time: number;
}

/** The reader could not decode the cut for good: the input is at fault, not the reader. */
export class UnreadableCutError extends Error {}

/**
 * Reads the on-screen text of one frame: decodes the frame `offset` seconds into a small cut,
 * scales it into a `boxPixels` square and reads its text lines. Throws `UnreadableCutError`
 * when the cut cannot be decoded; any other failure may pass, and the frame is tried again.
 */
export interface ScreenReader {
  /** The reader's name, as evidence names its source (`pp-ocrv4`). */
  readonly engine: string;
  read(cut: CutToRead, boxPixels: number): Promise<ScreenReading>;
}

/** What a transcriber made of a cut's speech: timed segments from the cut's start. */
export interface CutTranscript {
  language: string | null;
  segments: { start: number; end: number; text: string }[];
}

/** Where speech is in one audio cut, and what was said there when a transcriber runs. */
export interface HeardCut {
  /** Seconds of audio decoded from the cut. */
  seconds: number;
  /** Stretches holding speech, [start, end] seconds from the cut's start, in order. */
  spans: [number, number][];
  /** Null without a transcriber (or without speech); `{ error }` when it failed. */
  transcript: CutTranscript | { error: string } | null;
}

/**
 * Finds the speech in an audio cut (an M4A or WebM of a stretch of the source's audio).
 * Throws `UnreadableCutError` when the cut cannot be decoded; any other failure may pass.
 */
export interface SpeechSpans {
  /** The detector's name, as stored with the spans (`silero-vad@5`). */
  readonly engine: string;
  /** Whether it also transcribes the speech it finds (`HeardCut.transcript`). */
  readonly transcribes: boolean;
  hear(cut: Uint8Array): Promise<HeardCut>;
}
