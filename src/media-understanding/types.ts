import type { EvidenceSpan, ExtractionCoverage, ExtractionExtent } from "../domain/evidence";
import type { ClusterIndex, MediaProbe, RangeSource } from "../domain/media";
import type { InvocationScope } from "../lib/invocation-scope";
import type { Logger } from "../lib/log";

/** One time segment of the video index. */
export interface IndexSegment {
  /** 0-based, in time order. */
  index: number;
  start: number;
  end: number;
  /** What happens in the segment, said only from evidence. */
  sceneDescription: string;
  tags: string[];
  /** The words spoken or captioned in the segment ("" when none). */
  transcript: string;
  evidence: EvidenceSpan[];
}

/** The understanding of one video: what the index is built from. */
export interface VideoUnderstanding {
  /** The engine that produced it, e.g. `local-media@2`, `workers-ai@2`. */
  engine: string;
  segments: IndexSegment[];
  /** Video-level tags (container keywords, title words, detected labels). */
  tags: string[];
  title: string | null;
  description: string | null;
  thumbnail: { contentType: string; bytes: Uint8Array; source: "cover-art" | "poster" | "frame" };
  coverage: ExtractionCoverage;
  /** What each kind inspected; `coverage` flags are these shares at or above COMPLETE_SHARE. */
  extent: ExtractionExtent;
  /** Honest notes about what could not be extracted, e.g. `no-timed-text`. */
  limitations: string[];
}

/** What the engine is given about the video. */
export interface UnderstandInput {
  videoId: string;
  filename: string;
  contentType: string;
  /** The object key of the bytes in the media bucket. */
  objectKey: string;
  probe: MediaProbe;
  source: RangeSource;
  /**
   * Reads the probe's Cluster positions of a Matroska file without Cues (null when there are
   * none), so its cuts can seek; read when a window first opens the source.
   */
  clusterIndex?: () => Promise<ClusterIndex | null>;
  /** Shared by the windows of one invocation; without one, each window opens the source anew. */
  scope?: InvocationScope;
  /** Where the adapter logs, under the request whose work the video's processing is. */
  log?: Logger;
}

/**
 * A piece of a video's understanding that runs in an invocation of its own (a stretch of
 * audio, a batch of frames). `plan` and the result are the engine's own JSON: stored between
 * invocations and checked by the engine when read back.
 */
export interface PlannedWindow {
  kind: "audio" | "frames";
  plan: unknown;
}

/**
 * What earlier deliveries of a window kept of its work, and where a delivery keeps more: a
 * window whose work fails part way is retried as a whole, and the parts kept are not paid for
 * again. Deliveries are at least once, so a part may be kept twice; the later replaces it.
 */
export interface WindowParts {
  /** The parts kept so far, by the engine's own keys (`[A-Za-z0-9_-]`, at most 64). */
  readonly kept: Readonly<Record<string, unknown>>;
  /** Keeps one part for every later delivery of the window. */
  keep(key: string, part: unknown): Promise<void>;
}

/** A window as stored: its plan and, once understood, its result. */
export interface WindowOutcome extends PlannedWindow {
  result: unknown;
}

/**
 * A video's windows in plan order, as a list or read page by page (a long video has thousands,
 * so assembly takes each as it comes and keeps only what the index is built from).
 */
export type WindowOutcomes = Iterable<WindowOutcome> | AsyncIterable<WindowOutcome>;
