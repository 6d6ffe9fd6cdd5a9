import fc from "fast-check";
import { expect } from "vitest";
import { createDeps } from "../../../src/services/deps";
import { runSweep } from "../../../src/services/sweep";
import { tombstone } from "../../helpers/deletion";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { LEASE_MS } from "../../helpers/sweep";
import { uploadTo } from "../../helpers/uploads";
import { expectErased, expectNothingReadable } from "./checks";
import { interleave, type OpPlan, type Trace } from "./interleaver";
import { busyLane, deliverNext, LANES, type Lane } from "./lanes";
import { advance, type Case, type OpSpec, operation } from "./operations";
import type { Mode, World } from "./world";

/** Operations run side by side, switching at their gates as `picks` choose. */
export interface Step {
  ops: { spec: OpSpec; plan: OpPlan }[];
  picks: number[];
  /** Time that passes after the step, with nothing running (no heartbeat is missed). */
  idleSeconds: number;
}

/** Writes worth stopping before: where work that read the video earlier lands. */
const WRITES = [/r2 put/, /d1 batch/, /d1 update/, /d1 insert/, /QUEUE send/];

const planArb: fc.Arbitrary<OpPlan> = fc.record(
  {
    pauses: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 2 }),
    crashAt: fc.oneof(
      { weight: 4, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 15 }) },
    ),
    pauseBefore: fc.constantFrom(...WRITES),
  },
  { requiredKeys: ["pauses", "crashAt"] },
);

function specArb(mode: Mode): fc.Arbitrary<OpSpec> {
  // The local engine plans no windows: its videos never use the windows queues.
  const lanes: Lane[] =
    mode === "production"
      ? ["processing", "windows", "frames", "indexing", "analysis"]
      : ["processing", "indexing", "analysis"];
  const deliver = fc.record({
    kind: fc.constant("deliver" as const),
    lane: fc.constantFrom(...lanes),
    delivery: fc.record({
      fate: fc.constantFrom("redelivered" as const, "lost" as const),
      duplicate: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    }),
  });
  const just = <K extends OpSpec["kind"]>(kind: K) => fc.constant({ kind });
  return fc.oneof(
    { weight: 10, arbitrary: deliver },
    { weight: 2, arbitrary: just("complete") },
    { weight: 2, arbitrary: just("delete") },
    { weight: 1, arbitrary: just("run") },
    { weight: 1, arbitrary: just("captions") },
    { weight: 1, arbitrary: just("read") },
    { weight: 1, arbitrary: just("sweep") },
    {
      weight: 1,
      // A step's pauses and starts stay under a heartbeat (20 s): operations parked in flight
      // would have renewed their leases by then, which no clock here can make them do.
      arbitrary: fc.record({
        kind: fc.constant("pause" as const),
        seconds: fc.integer({ min: 1, max: 5 }),
      }),
    },
  );
}

/** One case: the upload, completed at once or left to a step, then the steps. */
export interface Schedule {
  completeFirst: boolean;
  steps: Step[];
}

/** Schedules: the upload is started, then steps of operations side by side. */
export function scheduleArb(mode: Mode): fc.Arbitrary<Schedule> {
  const step = fc.record({
    ops: fc.array(fc.record({ spec: specArb(mode), plan: planArb }), {
      minLength: 1,
      maxLength: 3,
    }),
    picks: fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 6 }),
    idleSeconds: fc.oneof(
      { weight: 3, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 59 }) },
      { weight: 2, arbitrary: fc.integer({ min: 60, max: 200 }) },
    ),
  });
  return fc.record({
    // Mostly completed at once, so most schedules reach processing.
    completeFirst: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
    steps: fc.array(step, { minLength: 2, maxLength: 8 }),
  });
}

async function isDeleted(videoId: string): Promise<boolean> {
  return (await tombstone(videoId))?.status === "deleted";
}

/** POST /videos and the bytes PUT to its target, and the upload completed if asked. */
export async function startUpload(world: World, complete: boolean): Promise<Case> {
  const bytes = fixtureBytes("talk.mp4");
  const res = await world.request(world.env, "POST", "/videos", {
    filename: "talk.mp4",
    file_size: bytes.byteLength,
  });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  const session = JSON.parse(text) as {
    video_id: string;
    targets: { url: string; headers: Record<string, string> }[];
  };
  await uploadTo(session.targets[0] ?? { url: "", headers: {} }, bytes);
  if (complete) {
    const done = await world.request(
      world.env,
      "POST",
      `/videos/${session.video_id}/upload/complete`,
      {},
    );
    expect(done.status, await done.text()).toBe(200);
  }
  return { videoId: session.video_id, urls: new Set() };
}

const QUIET = { fate: "redelivered", duplicate: false } as const;

/** Delivers every message, then sweeps a lease later, until a sweep finds nothing to do. */
export async function quiesce(world: World): Promise<void> {
  const lanes = Object.keys(LANES) as Lane[];
  for (let round = 0; ; round++) {
    expect(round, "the sweep still finds work after 12 rounds").toBeLessThan(12);
    for (let delivered = 0; delivered < 500; delivered++) {
      const lane = busyLane(world.queues, "processing");
      if (!lane) break;
      const deps = createDeps(
        world.env,
        world.ports(async () => undefined),
      );
      await deliverNext(world.queues[lane], lane, deps, QUIET, () => false);
    }
    advance(2 * LEASE_MS + 1000);
    await runSweep(createDeps(world.env, world.readPorts));
    if (lanes.every((name) => world.queues[name].pending.length === 0)) return;
  }
}

/**
 * Finishes a schedule: a video no step deleted is deleted once its work is done (deletion
 * after completion); then the work left and the sweep run until nothing is left to do.
 */
async function settle(world: World, c: Case): Promise<void> {
  if (!(await isDeleted(c.videoId))) {
    await quiesce(world);
    const res = await world.request(world.env, "DELETE", `/videos/${c.videoId}`);
    expect(res.status, await res.text()).toBe(204);
  }
  await quiesce(world);
}

function describeTraces(traces: Trace[]): string {
  return traces
    .map((t) => `  ${t.label}${t.crashed ? " (died)" : ""}: ${t.gates.join(" | ").slice(0, 600)}`)
    .join("\n");
}

/**
 * Runs one schedule on a fresh video, then the sweep until quiet: after every step that left
 * the video deleted, no read shows it; after the sweep, nothing of it is stored.
 */
export async function runSchedule(world: World, { completeFirst, steps }: Schedule): Promise<void> {
  const c = await startUpload(world, completeFirst);
  const journal: string[] = [];
  try {
    // Objects stored again by work in flight are deleted again as that work ends; work that
    // died first leaves them to erasure, so signed URLs are held to 404 only until a death.
    let died = false;
    for (const [i, step] of steps.entries()) {
      const ops = step.ops.map(({ spec, plan }) => operation(world, c, spec, plan));
      const traces = await interleave(ops, step.picks);
      journal.push(`step ${i}:\n${describeTraces(traces)}`);
      if (await isDeleted(c.videoId)) {
        died ||= traces.some((trace) => trace.crashed);
        await expectNothingReadable(world, c, `after step ${i}`, { urls: !died });
      }
      advance(step.idleSeconds * 1000);
    }
    await settle(world, c);
    await expectNothingReadable(world, c, "after the sweep", { urls: true });
    await expectErased(world, c, "after the sweep");
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\nvideo ${c.videoId}\n${journal.join("\n")}`);
  }
}
