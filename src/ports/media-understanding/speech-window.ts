import { z } from "zod";
import type { Logger } from "../../lib/log";
import type { Cutter } from "../../media/cut";
import type { AudioPlan } from "../../media-understanding/windows";
import type { SpeechSpans } from "../screen-reader/port";
import { parseWhisper } from "./model-outputs";
import { permanent } from "./step-outcome";

const SpeechTextSchema = z.object({
  start: z.number(),
  end: z.number(),
  text: z.string(),
  origin: z.literal("speech"),
  source: z.string(),
  language: z.string().nullable(),
  group: z.number(),
});

/**
 * What one local audio window found: the seconds its detector inspected, the stretches with
 * speech (source time), and, with a transcriber, what was said (`heard`: seconds transcribed).
 */
export const HeardResultSchema = z.object({
  inspected: z.number().min(0),
  speech: z.array(z.tuple([z.number(), z.number()])),
  transcript: z.array(SpeechTextSchema),
  language: z.string().nullable(),
  heard: z.number().min(0),
  notes: z.array(z.string()),
});
export type HeardResult = z.infer<typeof HeardResultSchema>;

/** The result of an audio window that could not be heard. */
export function unheard(note: string): HeardResult {
  return { inspected: 0, speech: [], transcript: [], language: null, heard: 0, notes: [note] };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** One audio window: cut, its speech found, and transcribed when a transcriber runs. */
export async function hearWindow(
  speech: SpeechSpans,
  cutter: Cutter,
  plan: AudioPlan,
  log: Logger | undefined,
): Promise<HeardResult> {
  const cut = await permanent(() => cutter.audio(plan.start, plan.end), log);
  if (!cut.ok) return unheard("audio-extraction-failed");
  if (cut.value === null) return { ...unheard("no-audio-track"), notes: [] };
  const audio = cut.value;
  const found = await permanent(() => speech.hear(audio.bytes), log);
  if (!found.ok) return unheard("speech-detection-failed");
  const { spans, seconds, transcript } = found.value;
  // A cut starts at the packet before `plan.start`; only the window's own stretch counts.
  const inWindow = spans.flatMap(([from, to]): [number, number][] => {
    const s = Math.max(plan.start, audio.start + from);
    const e = Math.min(plan.end, audio.start + to);
    return e > s ? [[round(s), round(e)]] : [];
  });
  const inspected = Math.max(
    0,
    Math.min(plan.end, audio.start + seconds) - Math.max(plan.start, audio.start),
  );
  const result: HeardResult = {
    inspected: round(inspected),
    speech: inWindow,
    transcript: [],
    language: null,
    heard: 0,
    notes: [],
  };
  if (transcript === null) return result;
  if ("error" in transcript) {
    log?.error({ media_step_failed: transcript.error });
    return { ...result, notes: ["speech-recognition-failed"] };
  }
  const raw = {
    text: transcript.segments.map((s) => s.text).join(" "),
    segments: transcript.segments,
  };
  // whisper.cpp names the language it transcribed in, without a probability: taken as given.
  const chunk = { start: audio.start, length: audio.end - audio.start };
  const parsed = parseWhisper(raw, chunk, transcript.language);
  return {
    ...result,
    transcript: parsed.spans.map((s) => ({ ...s, origin: "speech" as const })),
    language: parsed.language,
    // As production counts it: a window whose speech was recognised validly.
    heard: parsed.malformed || parsed.spans.length === 0 ? 0 : plan.end - plan.start,
    notes: parsed.malformed ? ["speech-output-malformed"] : [],
  };
}

/** Spans of speech from every window, merged where they touch, in time order. */
export function mergeSpans(spans: readonly [number, number][]): [number, number][] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [s, e] of sorted) {
    const last = merged.at(-1);
    if (last && s <= last[1] + 0.001) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged;
}
