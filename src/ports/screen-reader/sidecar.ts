import { z } from "zod";
import {
  type CutToRead,
  type HeardCut,
  type ScreenReader,
  type ScreenReading,
  type SpeechSpans,
  UnreadableCutError,
} from "./port";

/** Where the screen reader listens and the secret it takes (set by the local start scripts). */
export interface SidecarAddress {
  url: string;
  secret: string;
}

const ReadingSchema = z.object({
  engine: z.string().min(1),
  frame: z.object({ content_type: z.string().startsWith("image/"), base64: z.string().min(1) }),
  lines: z.array(z.object({ text: z.string(), confidence: z.number().min(0).max(1) })),
});

/** Statuses by which the reader says the cut itself is at fault. */
const INPUT_REFUSED = new Set([400, 413, 422]);

/**
 * The screen reader that runs next to `wrangler dev` (screen-reader/server.mjs): a Node
 * process holding ffmpeg and the PP-OCRv4 models, which the Worker cannot load. Each frame's
 * cut is posted to it over loopback; it answers the decoded frame and the lines it read.
 */
export class SidecarScreenReader implements ScreenReader {
  readonly engine = "pp-ocrv4";

  constructor(private readonly address: SidecarAddress) {}

  async read(cut: CutToRead, boxPixels: number): Promise<ScreenReading> {
    const url = new URL("/v1/frames", this.address.url);
    url.searchParams.set("offset", String(cut.offset));
    url.searchParams.set("box", String(boxPixels));
    const res = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${this.address.secret}`,
        "content-type": "application/octet-stream",
      },
      body: cut.bytes,
    });
    const body: unknown = await res.json().catch(() => null);
    if (INPUT_REFUSED.has(res.status))
      throw new UnreadableCutError(`the screen reader refused the cut: ${errorOf(body)}`);
    // Anything else may pass (the reader restarting, busy, or not up yet): tried again later.
    if (!res.ok) throw new Error(`the screen reader answered ${res.status}: ${errorOf(body)}`);
    const reading = ReadingSchema.parse(body);
    return {
      frame: { contentType: reading.frame.content_type, bytes: fromBase64(reading.frame.base64) },
      lines: reading.lines,
    };
  }
}

const HeardSchema = z.object({
  seconds: z.number().min(0),
  spans: z.array(z.tuple([z.number().min(0), z.number().min(0)])),
  transcript: z
    .union([
      z.object({ error: z.string() }),
      z.object({
        language: z.string().nullable(),
        segments: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })),
      }),
    ])
    .nullable(),
});

/**
 * The speech spans of the same sidecar (screen-reader/speech.mjs): each audio window's cut is
 * posted to it; it answers where Silero VAD found speech and, when it was started with
 * WHISPER_URL, what a whisper.cpp server heard there.
 */
export class SidecarSpeechSpans implements SpeechSpans {
  constructor(
    private readonly address: SidecarAddress,
    readonly engine: string,
    readonly transcribes = false,
  ) {}

  async hear(cut: Uint8Array): Promise<HeardCut> {
    const res = await fetch(new URL("/v1/speech", this.address.url), {
      method: "POST",
      headers: {
        authorization: `Bearer ${this.address.secret}`,
        "content-type": "application/octet-stream",
      },
      body: cut,
    });
    const body: unknown = await res.json().catch(() => null);
    if (INPUT_REFUSED.has(res.status))
      throw new UnreadableCutError(`the speech detector refused the cut: ${errorOf(body)}`);
    if (!res.ok) throw new Error(`the speech detector answered ${res.status}: ${errorOf(body)}`);
    return HeardSchema.parse(body);
  }
}

function errorOf(body: unknown): string {
  const parsed = z.object({ error: z.string() }).safeParse(body);
  return parsed.success ? parsed.data.error.slice(0, 200) : "no reason given";
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}
