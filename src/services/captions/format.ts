import type { CaptionCue, CaptionFormat } from "./parse";

/** `hh:mm:ss.mmm` (WebVTT) or `hh:mm:ss,mmm` (SRT), rounded to the millisecond. */
function timestamp(seconds: number, separator: "." | ","): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${separator}${pad(ms % 1000, 3)}`;
}

// WebVTT cue text is HTML-like: a literal "<" or "&" would start a tag or an entity, and a
// blank line would end the cue early.
function webvttText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .join("\n");
}

function srtText(text: string): string {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .join("\n");
}

/** Cues as a WebVTT or SRT file, numbered from 1 in the order given. */
export function formatCaptions(format: CaptionFormat, cues: readonly CaptionCue[]): string {
  const separator = format === "webvtt" ? "." : ",";
  const body = cues.map((cue, i) => {
    const times = `${timestamp(cue.start, separator)} --> ${timestamp(cue.end, separator)}`;
    const text = format === "webvtt" ? webvttText(cue.text) : srtText(cue.text);
    return `${i + 1}\n${times}\n${text}\n`;
  });
  return format === "webvtt" ? ["WEBVTT\n", ...body].join("\n") : body.join("\n");
}
