import { vi } from "vitest";
import { createDeps } from "../../../src/services/deps";
import { runSweep } from "../../../src/services/sweep";
import { type Gate, gatedEnv } from "./gated-env";
import type { Operation, OpPlan } from "./interleaver";
import { busyLane, type Delivery, deliverNext, type Lane } from "./lanes";
import type { World } from "./world";

/** What a schedule does at one point. */
export type OpSpec =
  | { kind: "deliver"; lane: Lane; delivery: Delivery }
  | { kind: "complete" }
  | { kind: "delete" }
  | { kind: "run" }
  | { kind: "captions" }
  | { kind: "read" }
  | { kind: "sweep" }
  | { kind: "pause"; seconds: number };

/** The video a schedule works on, and what the API handed out about it. */
export interface Case {
  videoId: string;
  /** Signed URLs of the video's objects that responses carried. */
  urls: Set<string>;
}

/** A phrase said in talk.mp4: search finds the video by it while it is indexed. */
export const PHRASE = '"the loading dock closes at six pm"';

const CAPTIONS = "WEBVTT\n\n00:00.000 --> 00:02.000\nForklifts give way to people on foot.\n";

/** Moves every clock of the isolate (Date is faked) forward. */
export function advance(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}

interface HandedOut {
  thumbnail_url?: string;
  data?: { video_id: string; image?: string; video_url?: string }[];
}

async function keepUrls(res: Response, c: Case): Promise<void> {
  if (res.status !== 200) return;
  const body = (await res.json()) as HandedOut;
  if (body.thumbnail_url) c.urls.add(body.thumbnail_url);
  for (const hit of body.data ?? []) {
    if (hit.video_id !== c.videoId) continue;
    if (hit.image) c.urls.add(hit.image);
    if (hit.video_url) c.urls.add(hit.video_url.replace(/#.*$/, ""));
  }
}

async function perform(world: World, c: Case, spec: OpSpec, gate: Gate, died: () => boolean) {
  const bindings = gatedEnv(world.env, gate);
  const path = `/videos/${c.videoId}`;
  switch (spec.kind) {
    case "deliver": {
      // A delivery always has something to do while any queue holds a message.
      const lane = busyLane(world.queues, spec.lane);
      if (!lane) return;
      const deps = createDeps(bindings, world.ports(gate));
      await deliverNext(world.queues[lane], lane, deps, spec.delivery, died);
      return;
    }
    case "complete":
      await world.request(bindings, "POST", `${path}/upload/complete`, {});
      return;
    case "delete":
      await world.request(bindings, "DELETE", path);
      return;
    case "run":
      await world.request(bindings, "POST", "/runs", {
        source_ids: [c.videoId],
        profile_id: world.profileId,
      });
      return;
    case "captions":
      await world.request(bindings, "PUT", `${path}/captions/en`, CAPTIONS, "text/vtt");
      return;
    case "read":
      await keepUrls(await world.request(bindings, "GET", path), c);
      await keepUrls(await world.request(bindings, "POST", "/search", { query: PHRASE }), c);
      return;
    case "sweep":
      await runSweep(createDeps(bindings, world.ports(gate)));
      return;
    case "pause":
      advance(spec.seconds * 1000);
      return;
  }
}

/** The operation a spec stands for, over the world and the case's video. */
export function operation(world: World, c: Case, spec: OpSpec, plan: OpPlan): Operation {
  const label = spec.kind === "deliver" ? `deliver ${spec.lane}` : spec.kind;
  return {
    label,
    plan,
    run: async (gate, died) => {
      // A second passes as each operation starts, so their writes are told apart.
      advance(1000);
      await perform(world, c, spec, gate, died);
    },
  };
}
