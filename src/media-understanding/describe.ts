import { formatClock as clockText } from "../lib/time-format";
import type { TimeRange } from "./segmenter";
import type { TimedText } from "./timed-text";

const QUOTE_MAX_CHARS = 160;

/** `mm:ss`, or `h:mm:ss` from an hour on; whole seconds, rounded down; non-finite is 00:00. */
export function formatClock(seconds: number): string {
  return clockText(Number.isFinite(seconds) ? seconds : 0);
}

/** `00:10–00:20`: the start rounded down and the end rounded up, so the range covers it. */
export function formatRange(range: TimeRange): string {
  return `${formatClock(range.start)}–${formatClock(Math.ceil(range.end))}`;
}

/** The text in double quotes, cut at a word boundary with an ellipsis when long. */
export function quote(text: string, max = QUOTE_MAX_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  if (chars.length <= max) return `"${flat}"`;
  const cut = chars.slice(0, max).join("");
  const space = cut.lastIndexOf(" ");
  return `"${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…"`;
}

/** What a segment description is built from: nothing here is inferred. */
export interface DescriptionParts {
  range: TimeRange;
  /** A vision model's descriptions of the frames sampled in the segment, in time order. */
  frames: readonly { time: number; description: string }[];
  /** Lines of on-screen text a screen reader read in frames of the segment, in time order. */
  screens?: readonly { time: number; lines: readonly string[] }[];
  transcript: { text: string; origin: TimedText["origin"] | null };
  /** Said when there is neither a frame description nor a transcript. */
  emptyNote: string;
}

/**
 * A segment's scene description, stating the kind of evidence each sentence comes from:
 * `Frame at 00:12 (vision model): …`, `On screen at 00:02 (text recognition): "…"`,
 * `Captioned speech: "…"`, `Recognised speech: "…"`.
 */
export function describeSegment(parts: DescriptionParts): string {
  const sentences: string[] = [];
  for (const frame of parts.frames) {
    const d = frame.description.replace(/\s+/g, " ").trim();
    sentences.push(`Frame at ${formatClock(frame.time)} (vision model): ${endSentence(d)}`);
  }
  for (const screen of parts.screens ?? []) {
    const lines = screen.lines.map((line) => quote(line, 80)).join(", ");
    sentences.push(`On screen at ${formatClock(screen.time)} (text recognition): ${lines}.`);
  }
  const { text, origin } = parts.transcript;
  if (text !== "" && origin !== null) {
    const label = origin === "caption" ? "Captioned speech" : "Recognised speech";
    sentences.push(`${label}: ${quote(text)}`);
  }
  if (sentences.length === 0) sentences.push(`${parts.emptyNote} (${formatRange(parts.range)}).`);
  return sentences.join(" ");
}

function endSentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}
