import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { expect, vi } from "vitest";
import { createPorts, type Ports } from "../../../src/ports";
import { WorkersAiEmbedder } from "../../../src/ports/embedder/workers-ai";
import { consumeIndexing, consumeProcessing, consumeWindows } from "../../../src/queues/processing";
import { createDeps } from "../../../src/services/deps";
import { CLAIM_MS } from "../../../src/services/lease-heartbeat";
import { runSweep } from "../../../src/services/sweep";
import { queuedVideo } from "../../helpers/processing";
import { LEASE_MS, type RecordingQueue, recordingEnv } from "../../helpers/sweep";
import { gatedEnv } from "../deletion/gated-env";
import { simulatedEngine } from "../processing/simulated-engine";

/** Which adapters process the videos: the local engine, or production over the simulators. */
export type Mode = "local" | "production";

/**
 * What befalls one delivery: which pending message it is (`pick`, modulo how many are
 * pending), whether a second copy arrives with it or after its ack, and where its invocation
 * dies: before its `crashAt`-th call to D1, R2 or a queue, or, when it makes fewer calls, after
 * its last one and before its ack (so the message comes again though its work is all done).
 */
export interface Fault {
  pick: number;
  copy: "none" | "together" | "later";
  crashAt: number | null;
}

/** Faults, one per delivery; deliveries after the last go fault-free, oldest message first. */
export const faultsArb: fc.Arbitrary<Fault[]> = fc.array(
  fc.record({
    pick: fc.nat({ max: 7 }),
    copy: fc.constantFrom("none" as const, "together" as const, "later" as const),
    crashAt: fc.oneof(
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 2, arbitrary: fc.integer({ min: 1, max: 16 }) },
    ),
  }),
  { maxLength: 16 },
);

/** The invocation died here (the words avoid those a media step takes for a bad input). */
class Crash extends Error {
  constructor() {
    super("the invocation stopped (test crash)");
  }
}

const LANES = [
  { queue: "PROCESSING_QUEUE", name: "video-processing", consume: consumeProcessing },
  { queue: "WINDOWS_QUEUE", name: "media-windows", consume: consumeWindows },
  { queue: "FRAMES_QUEUE", name: "media-frames", consume: consumeWindows },
  { queue: "INDEXING_QUEUE", name: "search-indexing", consume: consumeIndexing },
] as const;

type Lane = (typeof LANES)[number];

interface Pending {
  lane: Lane;
  body: unknown;
}

/** The ports a mode processes with; production embeds through the simulated Workers AI too. */
export function portsOf(mode: Mode): Ports {
  if (mode === "local") return createPorts(env);
  const { ports, ai } = simulatedEngine();
  const embedder = new WorkersAiEmbedder({ run: (model, inputs) => ai.run(model, inputs) });
  return { ...ports, embedder };
}

/**
 * Delivers one message through its real consumer in an invocation that dies where `crashAt`
 * says; answers whether the queue would deliver it again.
 */
async function deliverOnce(
  ports: Ports,
  base: ReturnType<typeof recordingEnv>["env"],
  message: Pending,
  crashAt: number | null,
): Promise<boolean> {
  let calls = 0;
  let dead = false;
  const gate = async () => {
    // A dead invocation makes no further call, whatever its catch blocks try.
    if (dead) throw new Crash();
    if (++calls === crashAt) {
      dead = true;
      throw new Crash();
    }
  };
  const target = crashAt === null ? base : gatedEnv(base, gate);
  const batch = createMessageBatch(message.lane.name, [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: message.body },
  ]);
  await message.lane.consume(batch, createDeps(target, ports));
  const result = await getQueueResult(batch, createExecutionContext());
  const died = dead || (crashAt !== null && calls < crashAt);
  return died || result.retryMessages.length > 0;
}

/** A queued talk.mp4 of a new workspace, processed through `faults` until it completes. */
export async function replay(ports: Ports, faults: readonly Fault[]) {
  const { workspaceId, videoId } = await queuedVideo();
  const target = recordingEnv();
  const pending: Pending[] = [
    {
      lane: LANES[0],
      body: { type: "process-video", video_id: videoId, workspace_id: workspaceId },
    },
  ];
  const taken = new Map<Lane, number>();
  const collect = () => {
    for (const lane of LANES) {
      const sent = (target.queues[lane.queue] as RecordingQueue).sent;
      const from = taken.get(lane) ?? 0;
      for (const body of sent.slice(from)) pending.push({ lane, body });
      taken.set(lane, sent.length);
    }
  };
  let step = 0;
  for (let deliveries = 0; ; deliveries++) {
    expect(deliveries, "the deliveries settle").toBeLessThan(400);
    collect();
    if (pending.length === 0) {
      if (await completed(videoId)) break;
      // A crash between a write and the send after it: the sweep finds the work from its row.
      vi.setSystemTime(Date.now() + 3 * LEASE_MS);
      await runSweep(createDeps(target.env, ports));
      collect();
      expect(pending.length, "the sweep re-sends stopped work").toBeGreaterThan(0);
      continue;
    }
    const fault = faults[step++];
    const [message] = pending.splice((fault?.pick ?? 0) % pending.length, 1);
    if (!message) throw new Error("no message was picked");
    // Every claim an earlier delivery left has run out.
    vi.setSystemTime(Date.now() + CLAIM_MS + 1000);
    const copies = fault?.copy === "together" ? 2 : 1;
    const again = await Promise.all(
      Array.from({ length: copies }, (_, i) =>
        deliverOnce(ports, target.env, message, i === 0 ? (fault?.crashAt ?? null) : null),
      ),
    );
    if (again.some(Boolean) || fault?.copy === "later") pending.push(message);
  }
  return { workspaceId, videoId };
}

async function completed(videoId: string): Promise<boolean> {
  const row = await env.DB.prepare("SELECT status FROM videos WHERE id = ?")
    .bind(videoId)
    .first<{ status: string }>();
  expect(row?.status, "the video ends completed").not.toBe("failed");
  return row?.status === "completed";
}

/** A workspace's usage counters added up over every day, by `metric/key`. */
export async function workspaceCounters(workspaceId: string): Promise<Record<string, number>> {
  const { results } = await env.DB.prepare(
    "SELECT metric, key, sum(value) AS value FROM usage_daily WHERE workspace_id = ? GROUP BY metric, key",
  )
    .bind(workspaceId)
    .all<{ metric: string; key: string; value: number }>();
  return Object.fromEntries(results.map((row) => [`${row.metric}/${row.key}`, row.value]));
}

/** A video's own usage counters, by `metric/key`. */
export async function videoCounters(videoId: string): Promise<Record<string, number>> {
  const { results } = await env.DB.prepare(
    "SELECT metric, key, value FROM video_usage WHERE video_id = ?",
  )
    .bind(videoId)
    .all<{ metric: string; key: string; value: number }>();
  return Object.fromEntries(results.map((row) => [`${row.metric}/${row.key}`, row.value]));
}
