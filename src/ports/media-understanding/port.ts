import type { EvidenceSpan, ExtractionCoverage, ExtractionExtent } from "../../domain/evidence";
import type { ClusterIndex, MediaProbe, RangeSource } from "../../domain/media";
import type { MediaUsage } from "../../domain/usage";
import type { Logger } from "../../lib/log";

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

/** Something a scope holds until its invocation ends. */
export interface Disposable {
  dispose(): void;
}

/**
 * What the windows worked in one invocation share: a video's probe read once and its source
 * opened once (its container index read and parsed once) for every window of the same video,
 * instead of once per window. A scope lives as long as one invocation and is never shared
 * between invocations: what it holds was opened in that invocation's request, and another
 * request waiting on it could be cancelled.
 */
export class InvocationScope {
  private readonly held = new Map<string, Disposable>();

  /** What `key` names, opened by `open` the first time it is asked for in this scope. */
  getOrOpen<T extends Disposable>(key: string, open: () => T): T {
    const found = this.held.get(key);
    if (found) return found as T;
    const opened = open();
    this.held.set(key, opened);
    return opened;
  }

  /** Lets go of what `key` names, so the next ask opens it again (it failed). */
  forget(key: string): void {
    this.held.get(key)?.dispose();
    this.held.delete(key);
  }

  /** Lets go of everything opened (the invocation is ending). */
  dispose(): void {
    for (const item of this.held.values()) item.dispose();
    this.held.clear();
  }
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

/** Every step in one go, window after window: for tests and for engines that plan none. */
export async function understandWhole(
  engine: MediaUnderstanding,
  input: UnderstandInput,
): Promise<VideoUnderstanding> {
  const outcomes: WindowOutcome[] = [];
  for (const window of engine.plan(input)) {
    outcomes.push({ ...window, result: await engine.understandWindow(input, window) });
  }
  return engine.assemble(input, outcomes);
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

/**
 * Turns a probed video into segments with descriptions, tags and evidence, in three steps so
 * that no invocation nears the platform's limits whatever the video's length: `plan` splits
 * the work into windows, each window is understood on its own (fanned out over a queue), and
 * `assemble` builds the index from the probe and every window's result.
 */
export interface MediaUnderstanding {
  /** The engine's id, as stored with what it made (`local-media@2`, `workers-ai@4`). */
  readonly engine: string;
  /** The windows to understand, in order; none when the probe alone is enough. */
  plan(input: UnderstandInput): PlannedWindow[];
  /**
   * Understands one window and answers its result (JSON). Throws only when the window must be
   * tried again later (a transient platform failure); whatever cannot be extracted for good is
   * recorded in the result, never thrown. With `parts`, what earlier deliveries kept is used
   * as it is, and what this one does is kept as it goes.
   */
  understandWindow(
    input: UnderstandInput,
    window: PlannedWindow,
    parts?: WindowParts,
  ): Promise<unknown>;
  /**
   * The result of a window that could not be understood after every retry: it records the
   * failure (a limitation), so the video completes with what the other windows found.
   */
  abandoned(window: PlannedWindow): unknown;
  /**
   * What a window's stored result says its work used (speech recognised, frames described,
   * model calls by model), counted once with the window's completion. Engines that plan no
   * windows, or call no model, leave it out.
   */
  usage?(window: PlannedWindow, result: unknown): MediaUsage;
  /** Builds the understanding from the probe and the windows' results, in plan order. */
  assemble(input: UnderstandInput, windows: WindowOutcomes): Promise<VideoUnderstanding>;
}
