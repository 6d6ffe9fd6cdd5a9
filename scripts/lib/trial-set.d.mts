/** One trial file (trial-set.mjs). */
export interface TrialEntry {
  name: string;
  file: string;
  what: string;
  container: string;
  video: string;
  audio: string;
  language: string;
  word: string;
}
export const TRIAL_SET: TrialEntry[];
export const WINDOWING: { audioWindowSeconds: number; frameIntervalSeconds: number };
export function plannedCalls(
  duration: number | null,
  codecs: { audio: string | null; video: string | null },
): { whisper: number; media_transformations: number; vision: number };
