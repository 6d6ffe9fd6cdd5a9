import { cueText } from "../../media/subtitle-text";

/** The caption file formats a client can upload, named by their content type. */
export type CaptionFormat = "webvtt" | "srt";

/** One cue of an uploaded caption file. Times in seconds. */
export interface CaptionCue {
  start: number;
  end: number;
  text: string;
}

/** A caption file that cannot be read, with the 1-based line where reading stopped. */
export class CaptionFileError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

// WebVTT timestamps: hours optional, exactly three fraction digits (W3C WebVTT §4.4 "collect a
// WebVTT timestamp"); SRT writes hours always and a comma before the milliseconds.
const WEBVTT_TIME = String.raw`(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})`;
const SRT_TIME = String.raw`(\d{1,}):([0-5]\d):([0-5]\d)[,.](\d{1,3})`;
const TIMING = {
  webvtt: new RegExp(`^${WEBVTT_TIME}[ \\t]+-->[ \\t]+${WEBVTT_TIME}(?:[ \\t].*)?$`),
  srt: new RegExp(`^${SRT_TIME}[ \\t]*-->[ \\t]*${SRT_TIME}(?:[ \\t].*)?$`),
};

function seconds(h: string | undefined, m: string, s: string, fraction: string): number {
  // Whole milliseconds first: summing fractions of seconds would read 2.647 as 2.6470000000000002.
  const ms = ((Number(h ?? 0) * 60 + Number(m)) * 60 + Number(s)) * 1000;
  return (ms + Number(fraction.padEnd(3, "0"))) / 1000;
}

interface Block {
  /** 1-based line number of the block's first line. */
  first: number;
  lines: string[];
}

function blocks(lines: readonly string[], from: number): Block[] {
  const found: Block[] = [];
  let current: Block | null = null;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "") {
      current = null;
      continue;
    }
    if (!current) {
      current = { first: i + 1, lines: [] };
      found.push(current);
    }
    current.lines.push(line);
  }
  return found;
}

function timing(format: CaptionFormat, line: string, at: number): { start: number; end: number } {
  const m = TIMING[format].exec(line.trim());
  if (!m) {
    const shape =
      format === "webvtt" ? "00:00:01.000 --> 00:00:02.500" : "00:00:01,000 --> 00:00:02,500";
    throw new CaptionFileError(at, `expected a cue timing line such as "${shape}"`);
  }
  const start = seconds(m[1], m[2] ?? "0", m[3] ?? "0", m[4] ?? "0");
  const end = seconds(m[5], m[6] ?? "0", m[7] ?? "0", m[8] ?? "0");
  if (end < start) throw new CaptionFileError(at, "the cue ends before it starts");
  return { start, end };
}

function webvttCues(lines: readonly string[]): CaptionCue[] {
  // W3C WebVTT §4.1: the file starts with "WEBVTT", alone or followed by a space or tab.
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? "")) {
    throw new CaptionFileError(1, 'a WebVTT file starts with the line "WEBVTT"');
  }
  // The header runs to the first blank line.
  let from = 1;
  while (from < lines.length && (lines[from] ?? "").trim() !== "") from++;
  const cues: CaptionCue[] = [];
  for (const block of blocks(lines, from)) {
    const head = block.lines[0] ?? "";
    if (/^(?:NOTE|STYLE|REGION)(?:[ \t]|$)/.test(head)) continue;
    // A cue may carry an identifier line before its timing line.
    const timed = head.includes("-->") ? 0 : 1;
    const line = block.lines[timed];
    if (line === undefined) {
      throw new CaptionFileError(block.first, "expected a cue timing line after the identifier");
    }
    const times = timing("webvtt", line, block.first + timed);
    const text = cueText("webvtt", block.lines.slice(timed + 1).join("\n"));
    if (text !== "") cues.push({ ...times, text });
  }
  return cues;
}

function srtCues(lines: readonly string[]): CaptionCue[] {
  const cues: CaptionCue[] = [];
  for (const block of blocks(lines, 0)) {
    const head = block.lines[0] ?? "";
    // SRT numbers each cue; some writers leave the number out, so a timing line may lead.
    const timed = head.includes("-->") ? 0 : 1;
    if (timed === 1 && !/^\d+$/.test(head.trim())) {
      throw new CaptionFileError(block.first, "expected a cue number or a cue timing line");
    }
    const line = block.lines[timed];
    if (line === undefined) {
      throw new CaptionFileError(block.first, "expected a cue timing line after the cue number");
    }
    const times = timing("srt", line, block.first + timed);
    const text = cueText("srt", block.lines.slice(timed + 1).join("\n"));
    if (text !== "") cues.push({ ...times, text });
  }
  return cues;
}

/**
 * The cues of a WebVTT or SRT file (UTF-8, BOM allowed, CRLF or LF), in file order; cues with
 * no text are left out. Throws CaptionFileError naming the line of the first malformed cue.
 */
export function parseCaptionFile(format: CaptionFormat, bytes: Uint8Array): CaptionCue[] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new CaptionFileError(1, "the file is not UTF-8 text");
  }
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const cues = format === "webvtt" ? webvttCues(lines) : srtCues(lines);
  if (cues.length === 0) throw new CaptionFileError(1, "the file holds no cue with text");
  return cues;
}
