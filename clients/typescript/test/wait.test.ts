import { describe, expect, it } from "vitest";
import { VasClient, VasError } from "../src/index.js";
import { fakeClock } from "./fake-clock.js";

const stamp = "2026-11-23T00:00:00.000Z";

/** A client whose GET /videos/{id} answers the given statuses in turn (the last one repeats). */
function videoClient(states: { status: string; error?: object }[]) {
  let calls = 0;
  const client = new VasClient({
    baseUrl: "http://vas.test",
    apiKey: "vas_test",
    fetch: async () => {
      const state = states[Math.min(calls++, states.length - 1)];
      const video = { id: "vid_1", filename: "a.mp4", progress: 0, source: "upload", ...state };
      return Response.json({ ...video, created_at: stamp, updated_at: stamp });
    },
  });
  return { client, calls: () => calls };
}

describe("waitForVideo", () => {
  it("polls with growing pauses up to the cap until completed", async () => {
    const { clock, sleeps } = fakeClock();
    const statuses = ["queued", "processing", "processing", "processing", "processing"];
    const { client } = videoClient([
      ...statuses.map((status) => ({ status })),
      { status: "completed" },
    ]);
    const updates: string[] = [];
    const video = await client.waitForVideo("vid_1", {
      clock,
      intervalMs: 100,
      maxIntervalMs: 300,
      onUpdate: (v) => updates.push(v.status),
    });
    expect(video.status).toBe("completed");
    expect(sleeps).toEqual([100, 150, 225, 300, 300]);
    expect(updates).toEqual([...statuses, "completed"]);
  });

  it("throws a failed VasError carrying the video's error and the video", async () => {
    const error = {
      code: "unsupported-media",
      title: "Unsupported media",
      detail: "The file is not a video.",
      next_action: "Upload an MP4.",
    };
    const { client } = videoClient([{ status: "processing" }, { status: "failed", error }]);
    const failure = await client
      .waitForVideo("vid_1", { clock: fakeClock().clock })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(VasError);
    expect(failure).toMatchObject({
      kind: "failed",
      code: "unsupported-media",
      problem: { detail: "The file is not a video.", next_action: "Upload an MP4." },
      resource: { id: "vid_1", status: "failed" },
    });
  });

  it("times out with the last state seen", async () => {
    const { clock, sleeps } = fakeClock();
    const { client } = videoClient([{ status: "processing" }]);
    const failure = await client
      .waitForVideo("vid_1", { clock, timeoutMs: 1000, intervalMs: 400, maxIntervalMs: 400 })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({
      kind: "timeout",
      code: "timeout",
      resource: { status: "processing" },
    });
    expect(sleeps).toEqual([400, 400, 200]);
  });

  it("stops on abort with the signal's reason, without another poll", async () => {
    const { client, calls } = videoClient([{ status: "processing" }]);
    const early = client.waitForVideo("vid_1", { signal: AbortSignal.abort(new Error("gave up")) });
    await expect(early).rejects.toThrow("gave up");
    expect(calls()).toBe(0);
    const controller = new AbortController();
    const pending = client.waitForVideo("vid_1", { intervalMs: 60_000, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(new Error("later"));
    await expect(pending).rejects.toThrow("later");
    expect(calls()).toBe(1);
  });

  it("ends a poll still in flight on abort, with the signal's reason", async () => {
    // The service never answers; only the abort can end the request, as with a real fetch.
    let asked = 0;
    const client = new VasClient({
      baseUrl: "http://vas.test",
      apiKey: "vas_test",
      fetch: (request) => {
        asked += 1;
        return new Promise((_, reject) => {
          request.signal.addEventListener("abort", () => reject(request.signal.reason));
        });
      },
    });
    const controller = new AbortController();
    const pending = client.waitForVideo("vid_1", { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(new Error("gave up"));
    await expect(pending).rejects.toThrow("gave up");
    expect(asked).toBe(1);
  });
});

describe("waitForRun", () => {
  it("treats canceled as a failure with code run-canceled", async () => {
    const run = {
      id: "run_1",
      kind: "analysis",
      status: "canceled",
      analysis: {},
      created_at: stamp,
      updated_at: stamp,
    };
    const client = new VasClient({
      baseUrl: "http://vas.test",
      apiKey: "vas_test",
      fetch: async () => Response.json(run),
    });
    await expect(client.waitForRun("run_1")).rejects.toMatchObject({
      kind: "failed",
      code: "run-canceled",
    });
  });
});
