import { classifyModelError } from "../ai/model-calls";
import { UncuttableError } from "./cut";

/** A media or model step's outcome: its value, or a failure for good. */
export type StepOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs one media or model step. A failure that can pass (a model still failing at its
 * deadline, storage or the edge unavailable) is thrown on, so the window is tried again later;
 * a failure for good (a codec that cannot be cut, input a model refuses) is answered as
 * `ok: false`, to be named as a limitation instead of inventing a result.
 */
export async function permanent<T>(call: () => Promise<T>): Promise<StepOutcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (!(error instanceof UncuttableError) && classifyModelError(error).transient) throw error;
    console.error(JSON.stringify({ media_step_failed: String(error) }));
    return { ok: false, error };
  }
}
