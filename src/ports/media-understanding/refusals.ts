import { FrameTooLargeError, UncuttableError } from "../../media/cut";
import { UnknownModelError } from "../ai/model-calls";

/** The step of a window that failed for good. */
export type RefusedStep = "cut" | "speech" | "frame" | "vision";

/** Workers AI's "Account limited": the daily free allocation of neurons is used up (platform/errors). */
const WORKERS_AI_QUOTA = 3036;
/** Workers AI refusals of the input itself: Invalid data, Incomplete request, Request too large. */
const INPUT_REFUSALS = new Set([5004, 3003, 3006]);
/**
 * Images' usage-limit refusal (images/reference/troubleshooting, 9422); Media Transformations
 * shares Images' subscription and usage (stream/transform-videos, Pricing) and documents no
 * codes of its own for the binding.
 */
const MEDIA_QUOTA = 9422;
const QUOTA_WORDS = /usage limit|free allocation|quota/i;

/** The code a platform error carries (its `code`, else one its message leads with). */
function codeOf(error: unknown, text: string): number | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "number") return code;
  const named = /\b([35]0\d\d|9\d\d\d)\b/.exec(text);
  return named ? Number(named[1]) : null;
}

/**
 * A limitation naming what a permanent failure was about, beside the step's own code: the quota
 * that ran out (`quota-exceeded:workers-ai`, `quota-exceeded:media-transformations`), or the
 * codec whose input was refused (`frame-extraction-refused:hevc`,
 * `speech-recognition-refused:opus`, `cut-unsupported:<codec>`), or a frame whose cut would
 * not fit the memory cuts are made in (`frame-too-large`). Null when it names none of these.
 */
export function namedRefusal(
  step: RefusedStep,
  error: unknown,
  codec: string | null,
): string | null {
  // An undocumented error says nothing of the input or a quota: its own text names it.
  if (error instanceof UnknownModelError) return null;
  const text = error instanceof Error ? error.message : String(error);
  const code = codeOf(error, text);
  const named = codec ?? "unknown";
  if (step === "cut") {
    if (error instanceof FrameTooLargeError) return "frame-too-large";
    return error instanceof UncuttableError ? `cut-unsupported:${named}` : null;
  }
  if (step === "frame") {
    if (code === MEDIA_QUOTA || QUOTA_WORDS.test(text))
      return "quota-exceeded:media-transformations";
    // The binding's refusals are undocumented; the options sent are within the documented
    // ranges, so a refusal for good is of the input: frames cut from this codec.
    return `frame-extraction-refused:${named}`;
  }
  if (code === WORKERS_AI_QUOTA) return "quota-exceeded:workers-ai";
  if (step === "speech" && code !== null && INPUT_REFUSALS.has(code))
    return `speech-recognition-refused:${named}`;
  return null;
}

/** Longest error text a limitation carries. */
const ERROR_TEXT_LIMIT = 80;

/**
 * A step's own limitation code and, when the failure names a codec or a quota, that too; for an
 * error no page documents, `model-error:<its text>` (sanitised and short: errorText).
 */
export function withRefusal(
  note: string,
  step: RefusedStep,
  error: unknown,
  codec: string | null,
): string[] {
  if (error instanceof UnknownModelError)
    return [note, `model-error:${error.text.slice(0, ERROR_TEXT_LIMIT)}`];
  const refusal = namedRefusal(step, error, codec);
  return refusal ? [note, refusal] : [note];
}
