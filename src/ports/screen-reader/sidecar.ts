import { z } from "zod";
import { type CutToRead, type ScreenReader, type ScreenReading, UnreadableCutError } from "./port";

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

function errorOf(body: unknown): string {
  const parsed = z.object({ error: z.string() }).safeParse(body);
  return parsed.success ? parsed.data.error.slice(0, 200) : "no reason given";
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}
