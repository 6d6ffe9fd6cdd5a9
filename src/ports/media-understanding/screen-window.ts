import { z } from "zod";
import type { Logger } from "../../lib/log";
import type { Cutter } from "../../media/cut";
import { type FramesPlan, standsFor, type WindowSettings } from "../../media-understanding/windows";
import type { ScreenReader } from "../screen-reader/port";
import { type ByteBudget, budgetedSpan, cutPeakBytes, isolateCutBudget } from "./byte-budget";
import { mapLimit } from "./edge-media";
import type { FrameStore } from "./frames-window";
import type { WindowParts } from "./port";
import { withRefusal } from "./refusals";
import { permanent } from "./step-outcome";

/** One frame read for on-screen text: when, the stretch it stands for, and every line read. */
export const ReadFrameSchema = z.object({
  time: z.number(),
  from: z.number(),
  to: z.number(),
  lines: z.array(z.object({ text: z.string(), confidence: z.number() })),
});
export type ReadFrame = z.infer<typeof ReadFrameSchema>;

/** What one frames window of the local engine yielded; the thumbnail frame is kept in R2. */
export const ScreenResultSchema = z.object({
  frames: z.array(ReadFrameSchema),
  thumbnail: z.object({ time: z.number(), contentType: z.string() }).nullable(),
  notes: z.array(z.string()),
});
export type ScreenResult = z.infer<typeof ScreenResultSchema>;

/** One frame of a window as kept between deliveries (null: nothing could be read). */
const ScreenPartSchema = z.object({ read: ReadFrameSchema.nullable(), notes: z.array(z.string()) });
type ScreenPart = z.infer<typeof ScreenPartSchema>;

/** What a frames window of the local engine needs. */
export interface ScreenWindowDeps {
  reader: ScreenReader;
  frames: FrameStore;
  settings: WindowSettings;
  cutBudget?: ByteBudget;
  log?: Logger;
}

/**
 * One frames window read for on-screen text: each frame cut as the production engine cuts it
 * (ranged reads, no decoding, the isolate's byte budget), then decoded and read by the screen
 * reader. Each frame is kept as a part once read, so a delivery after a failure reads only the
 * frames not read yet. The first window's first frame becomes the thumbnail.
 */
export async function readScreens(
  deps: ScreenWindowDeps,
  cutter: Cutter,
  videoId: string,
  plan: FramesPlan,
  { parts, codec }: { parts?: WindowParts; codec: string | null },
): Promise<ScreenResult> {
  const kept = new Map<number, ScreenPart>();
  for (const [key, value] of Object.entries(parts?.kept ?? {})) {
    const part = ScreenPartSchema.safeParse(value);
    if (part.success && /^\d+$/.test(key)) kept.set(Number(key), part.data);
  }
  const done = await mapLimit(plan.cells, deps.settings.concurrency, async (cell, i) => {
    const earlier = kept.get(i);
    if (earlier) return earlier;
    const part = await readCell(
      deps,
      cutter,
      cell,
      codec,
      plan.thumbnail && i === 0 ? videoId : null,
    );
    await parts?.keep(String(i), part);
    return part;
  });
  const first = done[0]?.read;
  return {
    frames: done.flatMap((part) => (part.read ? [part.read] : [])),
    thumbnail: plan.thumbnail && first ? { time: first.time, contentType: "image/jpeg" } : null,
    notes: [...new Set(done.flatMap((part) => part.notes))],
  };
}

/** Cuts and reads one cell's frame; `thumbnailOf` names the video whose thumbnail it becomes. */
async function readCell(
  deps: ScreenWindowDeps,
  cutter: Cutter,
  cell: FramesPlan["cells"][number],
  codec: string | null,
  thumbnailOf: string | null,
): Promise<ScreenPart> {
  const s = deps.settings;
  const budget = deps.cutBudget ?? isolateCutBudget;
  const limits = { maxOffset: s.maxFrameOffsetSeconds, maxBytes: s.maxInputBytes };
  const span = await permanent(() => budgetedSpan(cutter, cell.at, limits, budget), deps.log);
  if (!span.ok)
    return { read: null, notes: withRefusal("frame-extraction-failed", "cut", span.error, codec) };
  if (span.value === null) return { read: null, notes: [] };
  const found = span.value;
  // The cut's bytes are held against the budget until the reader has answered.
  return budget.use(cutPeakBytes(found.bytes), async (): Promise<ScreenPart> => {
    const cut = await permanent(() => cutter.cutFrame(found), deps.log);
    if (!cut.ok)
      return { read: null, notes: withRefusal("frame-extraction-failed", "cut", cut.error, codec) };
    const reading = await permanent(() => deps.reader.read(cut.value, s.frameBoxPixels), deps.log);
    if (!reading.ok)
      return {
        read: null,
        notes: withRefusal("frame-extraction-failed", "frame", reading.error, codec),
      };
    const time = cut.value.time;
    if (thumbnailOf !== null)
      await deps.frames.put(thumbnailOf, {
        time,
        contentType: reading.value.frame.contentType,
        bytes: reading.value.frame.bytes,
      });
    const stretch = standsFor(cell, time, s.frameIntervalSeconds);
    return {
      read: stretch ? { time, ...stretch, lines: reading.value.lines } : null,
      notes: [],
    };
  });
}
