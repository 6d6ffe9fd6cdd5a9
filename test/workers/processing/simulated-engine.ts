import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Faults } from "../../../simulators/faults";
import { SimulatedMedia } from "../../../simulators/media";
import { jpegComment } from "../../../simulators/media/jpeg";
import { SimulatedAi } from "../../../simulators/workers-ai";
import { RateWindow } from "../../../simulators/workers-ai/rate-window";
import { decodeBase64 } from "../../../simulators/workers-ai/speech";
import type { WindowSettings } from "../../../src/media-understanding/windows";
import { createPorts, type Ports } from "../../../src/ports";
import { type CallEnvironment, pacedAi } from "../../../src/ports/ai/model-calls";
import { R2FrameStore } from "../../../src/ports/media-understanding/frame-store";
import type { AiLike } from "../../../src/ports/media-understanding/model-outputs";
import { WorkersAiMediaUnderstanding } from "../../../src/ports/media-understanding/workers-ai";
import { consumeIndexing, consumeProcessing, consumeWindows } from "../../../src/queues/processing";
import { createDeps } from "../../../src/services/deps";
import { attemptsWithin } from "../../helpers/instant-calls";
import type { recordingEnv } from "../../helpers/sweep";

/** The vision model the production engine calls. */
export const VISION = "@cf/meta/llama-4-scout-17b-16e-instruct";

/**
 * One attempt per call: a transient failure is not retried inside the call but fails the
 * window, so every fault reaches the queue (the harshest case for claims and kept parts).
 */
export const ONE_ATTEMPT: CallEnvironment = attemptsWithin(1);

/** Faults that never fire and take no time. */
export const CALM: Faults = { delay: async () => undefined, fails: () => false };

/** One vision call as it ended: the source and time of the frame it was shown. */
export interface VisionCall {
  source: string | null;
  time: number | null;
  ok: boolean;
}

/**
 * The simulated Workers AI, with every vision call recorded by the frame it was shown (the
 * simulated media names each frame's source and time in the JPEG) and whether it answered;
 * `refuse` may fail a call transiently before the simulator sees it.
 */
export class CountingAi implements AiLike {
  readonly vision: VisionCall[] = [];

  constructor(
    private readonly inner: { run(model: string, inputs: unknown): Promise<unknown> },
    private readonly refuse: (call: Omit<VisionCall, "ok">) => boolean = () => false,
  ) {}

  async run(model: string, inputs: unknown): Promise<unknown> {
    if (model !== VISION) return this.inner.run(model, inputs);
    const frame = frameOf(inputs);
    try {
      if (this.refuse(frame))
        throw Object.assign(new Error("3040: Out of capacity (test)"), { code: 3040 });
      const answer = await this.inner.run(model, inputs);
      this.vision.push({ ...frame, ok: true });
      return answer;
    } catch (error) {
      this.vision.push({ ...frame, ok: false });
      throw error;
    }
  }

  /** Vision calls that answered, per `source@time`: a frame described twice counts 2. */
  described(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const call of this.vision.filter((c) => c.ok)) {
      const key = `${call.source}@${call.time}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }
}

function frameOf(inputs: unknown): Omit<VisionCall, "ok"> {
  const messages = (inputs as { messages?: { content?: unknown }[] }).messages ?? [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as { image_url?: { url?: string } }[]) {
      const url = part.image_url?.url;
      const label = url ? jpegComment(decodeBase64(url.replace(/^data:[^,]*,/, ""))) : null;
      if (label) {
        const { cut_of, time } = JSON.parse(label) as { cut_of: string | null; time: number };
        return { source: cut_of, time };
      }
    }
  }
  return { source: null, time: null };
}

/**
 * The local ports with the production media engine over the simulated Workers AI and Media
 * Transformations, each call tried once.
 */
export function simulatedEngine(
  options: {
    faults?: Faults;
    refuse?: (call: Omit<VisionCall, "ok">) => boolean;
    settings?: Partial<WindowSettings>;
  } = {},
): { ai: CountingAi; media: SimulatedMedia; ports: Ports } {
  const faults = options.faults ?? CALM;
  const simulated = new SimulatedAi({
    bucket: env.MEDIA_BUCKET,
    faults,
    vision: "describe",
    // The test's own minute: other files in this isolate must not spend its rate.
    rates: new RateWindow(),
  });
  const ai = new CountingAi(simulated, options.refuse);
  const media = new SimulatedMedia(faults);
  const ports: Ports = {
    ...createPorts(env),
    understanding: new WorkersAiMediaUnderstanding({
      ai: pacedAi(ai, ONE_ATTEMPT),
      media,
      frames: new R2FrameStore(env.MEDIA_BUCKET),
      mediaRetries: ONE_ATTEMPT,
      ...(options.settings ? { settings: options.settings } : {}),
    }),
  };
  return { ai, media, ports };
}

type Target = ReturnType<typeof recordingEnv>;

/** Delivers, through the real consumers, every message each consumer sends, in turn, until none is left. */
export async function drain(
  target: Target,
  ports: Ports,
  delivered: Map<string, number> = new Map(),
) {
  const { queues } = target;
  const lanes = [
    { consume: consumeProcessing, name: "video-processing", queue: queues.PROCESSING_QUEUE },
    { consume: consumeWindows, name: "media-windows", queue: queues.WINDOWS_QUEUE },
    { consume: consumeWindows, name: "media-frames", queue: queues.FRAMES_QUEUE },
    { consume: consumeIndexing, name: "search-indexing", queue: queues.INDEXING_QUEUE },
  ];
  for (let moved = true; moved; ) {
    moved = false;
    for (const lane of lanes) {
      const from = delivered.get(lane.name) ?? 0;
      const bodies = lane.queue.sent.slice(from);
      if (bodies.length === 0) continue;
      delivered.set(lane.name, from + bodies.length);
      moved = true;
      const batch = createMessageBatch(
        lane.name,
        bodies.map((body) => ({
          id: crypto.randomUUID(),
          timestamp: new Date(),
          attempts: 1,
          body,
        })),
      );
      await lane.consume(batch, createDeps(target.env, ports));
      await getQueueResult(batch, createExecutionContext());
    }
  }
}
