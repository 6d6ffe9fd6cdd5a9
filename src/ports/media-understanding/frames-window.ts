import { z } from "zod";
import type { MediaBindingLike } from "../../env";
import type { Logger } from "../../lib/log";
import type { Cutter } from "../../media/cut";
import type { FrameImage } from "../../media-understanding/assemble";
import {
  type FramesPlan,
  type FramesResult,
  SeenFrameSchema,
  standsFor,
  type WindowSettings,
} from "../../media-understanding/windows";
import { type CallEnvironment, callModel } from "../ai/model-calls";
import { type ByteBudget, budgetedSpan, cutPeakBytes, isolateCutBudget } from "./byte-budget";
import { extractFrame, mapLimit, toBase64 } from "./edge-media";
import { type AiLike, chatTokens, parseVision, VISION_MODEL, visionInput } from "./model-outputs";
import type { WindowParts } from "./port";
import { type RefusedStep, withRefusal } from "./refusals";
import { permanent } from "./step-outcome";

/** Where the frame chosen as thumbnail is kept between the window that took it and assembly. */
export interface FrameStore {
  put(videoId: string, frame: FrameImage): Promise<void>;
  get(videoId: string): Promise<FrameImage | null>;
}

/** What a frames window's work needs from the engine. */
export interface FramesWindowDeps {
  ai: AiLike;
  media: MediaBindingLike;
  frames: FrameStore;
  settings: WindowSettings;
  mediaRetries?: CallEnvironment;
  cutBudget?: ByteBudget;
  /** Where a step that failed for good is logged: the window's work, under its request. */
  log?: Logger;
}

/**
 * One frame of a window as kept between deliveries: what the vision model said of it (null
 * when it refused, or the frame could not be extracted), the notes it left, the frame's
 * time and type when it was extracted, so the thumbnail is chosen without describing it again,
 * and the tokens the vision call reported when it answered (null: no call answered), so a
 * frame described by an earlier delivery is counted once, with the window.
 */
export const FramePartSchema = z.object({
  seen: SeenFrameSchema.nullable(),
  notes: z.array(z.string()),
  image: z.object({ time: z.number(), contentType: z.string() }).nullable(),
  usage: z
    .object({ input_tokens: z.number().min(0), output_tokens: z.number().min(0) })
    .nullable()
    .default(null),
});
export type FramePart = z.infer<typeof FramePartSchema>;

/** A step that failed for good, and which step it was. */
type Refused = { ok: false; error: unknown; step: RefusedStep };

/** A frame looked at: its part, and its bytes while this delivery holds them. */
interface Looked {
  part: FramePart;
  image: FrameImage | null;
}

/**
 * One frames window: each frame cut, extracted and described, frame by frame (a cut's bytes
 * are held against the isolate's budget only until its frame is extracted, and a window's
 * calls keep the rate busy rather than waiting on a whole phase). Each frame is kept as a part
 * once it is done, so a delivery after a failure pays only for the frames not done yet. The
 * first frame extracted may become the thumbnail.
 */
export async function lookAtFrames(
  deps: FramesWindowDeps,
  cutter: Cutter,
  videoId: string,
  plan: FramesPlan,
  { parts, codec }: { parts?: WindowParts; codec: string | null },
): Promise<FramesResult> {
  const kept = keptFrames(parts);
  const looked = await mapLimit(plan.cells, deps.settings.concurrency, async (cell, i) => {
    const earlier = kept.get(i);
    if (earlier) return { part: earlier, image: null };
    const frame = await lookAt(deps, cutter, cell, codec);
    await parts?.keep(String(i), frame.part);
    // Only a thumbnail window needs a frame's bytes past its description.
    return plan.thumbnail ? frame : { part: frame.part, image: null };
  });
  const thumbnail = plan.thumbnail
    ? await keepThumbnail(deps, cutter, videoId, plan, looked)
    : null;
  return {
    frames: looked.flatMap((l) => (l.part.seen ? [l.part.seen] : [])),
    thumbnail,
    notes: [...new Set(looked.flatMap((l) => l.part.notes))],
    usage: visionUsage(looked.map((l) => l.part)),
  };
}

/** The vision calls that answered for a window's frames, as one model's use (none: empty). */
function visionUsage(parts: readonly FramePart[]): FramesResult["usage"] {
  const answered = parts.flatMap((part) => (part.usage ? [part.usage] : []));
  if (answered.length === 0) return [];
  return [
    {
      model: VISION_MODEL,
      calls: answered.length,
      input_tokens: answered.reduce((sum, u) => sum + u.input_tokens, 0),
      output_tokens: answered.reduce((sum, u) => sum + u.output_tokens, 0),
      audio_seconds: 0,
    },
  ];
}

/** The frames earlier deliveries kept, by index in the plan; a part not as kept is done again. */
function keptFrames(parts: WindowParts | undefined): Map<number, FramePart> {
  const kept = new Map<number, FramePart>();
  for (const [key, value] of Object.entries(parts?.kept ?? {})) {
    const part = FramePartSchema.safeParse(value);
    if (part.success && /^\d+$/.test(key)) kept.set(Number(key), part.data);
  }
  return kept;
}

async function lookAt(
  deps: FramesWindowDeps,
  cutter: Cutter,
  cell: FramesPlan["cells"][number],
  codec: string | null,
): Promise<Looked> {
  const extracted = await extractAt(deps, cutter, cell.at);
  if (extracted === "none")
    return { part: { seen: null, notes: [], image: null, usage: null }, image: null };
  if (!extracted.ok) {
    const notes = withRefusal("frame-extraction-failed", extracted.step, extracted.error, codec);
    return { part: { seen: null, notes, image: null, usage: null }, image: null };
  }
  const image = extracted.value;
  const ref = { time: image.time, contentType: image.contentType };
  const uri = `data:${image.contentType};base64,${toBase64(image.bytes)}`;
  const raw = await permanent(() => deps.ai.run(VISION_MODEL, visionInput([uri])), deps.log);
  if (!raw.ok) {
    const notes = withRefusal("vision-failed", "vision", raw.error, codec);
    return { part: { seen: null, notes, image: ref, usage: null }, image };
  }
  const parsed = parseVision(raw.value, 1);
  const seen = parsed.frames.get(0);
  const stretch = standsFor(cell, image.time, deps.settings.frameIntervalSeconds);
  return {
    part: {
      seen: seen && stretch ? { time: image.time, ...stretch, ...seen } : null,
      notes: parsed.malformed ? ["vision-output-malformed"] : [],
      image: ref,
      usage: chatTokens(raw.value),
    },
    image,
  };
}

/**
 * Stores the first frame extracted, in plan order, as the video's thumbnail frame. Its bytes
 * went with the delivery that extracted it when that one failed later, so it is extracted
 * again (a media call; it is not described again).
 */
async function keepThumbnail(
  deps: FramesWindowDeps,
  cutter: Cutter,
  videoId: string,
  plan: FramesPlan,
  looked: readonly Looked[],
): Promise<FramesResult["thumbnail"]> {
  const first = looked.findIndex((l) => l.part.image !== null);
  const cell = plan.cells[first];
  if (first < 0 || !cell) return null;
  let image = looked[first]?.image ?? null;
  if (!image) {
    const again = await extractAt(deps, cutter, cell.at);
    if (again === "none" || !again.ok) return null;
    image = again.value;
  }
  await deps.frames.put(videoId, image);
  return { time: image.time, contentType: image.contentType };
}

/**
 * The frame at `time`, cut and extracted while its cut's peak is held against the budget; the
 * cut is let go before the frame is described. A cut is at most what the budget holds at its
 * peak (the key frame alone past that); a key frame too large even so is never cut, and named
 * `frame-too-large`. "none" when the source has no video.
 */
async function extractAt(
  deps: FramesWindowDeps,
  cutter: Cutter,
  time: number,
): Promise<"none" | { ok: true; value: FrameImage } | Refused> {
  const s = deps.settings;
  const budget = deps.cutBudget ?? isolateCutBudget;
  const limits = { maxOffset: s.maxFrameOffsetSeconds, maxBytes: s.maxInputBytes };
  const span = await permanent(() => budgetedSpan(cutter, time, limits, budget), deps.log);
  if (!span.ok) return { ...span, step: "cut" };
  if (span.value === null) return "none";
  const found = span.value;
  return budget.use(cutPeakBytes(found.bytes), async () => {
    const cut = await permanent(() => cutter.cutFrame(found), deps.log);
    if (!cut.ok) return { ...cut, step: "cut" as const };
    const frame = await permanent(
      () =>
        callModel(deps.mediaRetries ?? {}, "media-transformations", () =>
          extractFrame(deps.media, cut.value, s.frameBoxPixels),
        ),
      deps.log,
    );
    return frame.ok ? frame : { ...frame, step: "frame" as const };
  });
}
