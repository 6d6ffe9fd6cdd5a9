import type { MediaUsage } from "../../domain/usage";
import type {
  IndexSegment,
  PlannedWindow,
  UnderstandInput,
  VideoUnderstanding,
  WindowOutcome,
  WindowOutcomes,
  WindowParts,
} from "../../media-understanding/types";

export type {
  IndexSegment,
  PlannedWindow,
  UnderstandInput,
  VideoUnderstanding,
  WindowOutcome,
  WindowOutcomes,
  WindowParts,
};

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
