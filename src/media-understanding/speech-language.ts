import type { MediaProbe } from "../domain/media";
import { captionExtents } from "./measure-extent";
import { captionSpans } from "./timed-text";

/**
 * The languages Whisper knows (large-v3 and its turbo: the model card's list plus `yue`); a
 * code outside them is refused by the model, so it is never passed.
 */
const WHISPER_LANGUAGES = new Set(
  (
    "en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no " +
    "th ur hr bg lt la mi ml cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw " +
    "gl mr pa si km sn yo so af oc ka be tg sd gu am yi lo uz fo ht ps tk nn mt sa lb my bo tl " +
    "mg as tt haw ln ha ba jw su yue"
  ).split(" "),
);

/**
 * The language to tell Whisper the audio is in: the one language the file's caption tracks
 * are in (each track's tag, else detected from its text), when they agree and Whisper knows
 * it; null otherwise, so the model detects it (docs/media-understanding.md, "Language").
 */
export function speechLanguage(probe: MediaProbe): string | null {
  const languages = new Set(
    captionExtents(probe, captionSpans(probe)).flatMap((e) => (e.language ? [e.language] : [])),
  );
  const [only] = languages;
  return languages.size === 1 && only !== undefined && WHISPER_LANGUAGES.has(only) ? only : null;
}

/** Below this detection probability Whisper's language is a guess, so it is not kept. */
export const MIN_DETECTED_PROBABILITY = 0.5;

/**
 * The language of a Whisper reply. When a language was passed, it is that one. When none was,
 * the reported language counts only if the reply shows it was detected: a probability under 1
 * (a language forced, by the caller or by a default of `en`, is reported with probability 1)
 * and at least MIN_DETECTED_PROBABILITY; otherwise the language is unknown, never English by
 * default.
 */
export function heardLanguage(
  passed: string | null,
  reported: string | null,
  probability: number | undefined,
): string | null {
  if (passed !== null) return passed;
  if (reported === null || probability === undefined) return null;
  return probability < 1 && probability >= MIN_DETECTED_PROBABILITY ? reported : null;
}
