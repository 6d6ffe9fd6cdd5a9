import { createLogger, type Logger } from "../../lib/log";
import { UncuttableError } from "../../media/cut";
import { classifyModelError, UnknownModelError } from "../ai/model-calls";
import { UnreadableCutError } from "../screen-reader/port";

/** A media or model step's outcome: its value, or a failure for good. */
export type StepOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs one media or model step. A failure that can pass (a model still failing at its
 * deadline, storage or the edge unavailable) is thrown on, so the window is tried again later;
 * a failure for good (a codec that cannot be cut, input a model refuses, a model error no page
 * documents that failed every bounded attempt) is answered as `ok: false`, to be named as a
 * limitation instead of inventing a result.
 */
export async function permanent<T>(
  call: () => Promise<T>,
  log: Logger = createLogger(),
): Promise<StepOutcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (!failsForGood(error)) throw error;
    // A documented refusal (a frame the vision model declines, a codec that cannot be cut) is
    // what the platform promises to do with such input: a warning. An error no page documents
    // is the service's to look into: an error.
    if (refusedAsDocumented(error)) log.warn({ media_step_refused: String(error) });
    else log.error({ media_step_failed: String(error) });
    return { ok: false, error };
  }
}

function refusedAsDocumented(error: unknown): boolean {
  return error instanceof UncuttableError || classifyModelError(error).kind === "permanent";
}

function failsForGood(error: unknown): boolean {
  if (error instanceof UncuttableError || error instanceof UnknownModelError) return true;
  if (error instanceof UnreadableCutError) return true;
  const { kind } = classifyModelError(error);
  if (kind !== "unknown") return kind === "permanent";
  // An undocumented error that did not come through callModel (storage, the cutter): the
  // window is retried unless its words say the input itself is at fault.
  const message = error instanceof Error ? error.message : String(error);
  return /invalid|malformed|schema|too large|unsupported/i.test(message);
}
