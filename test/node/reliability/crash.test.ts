import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, LocalProcess } from "../local-process";

// SIGKILL the real local process with work in flight, start it again on the same state, and
// every item must reach a final state. Work is held at known stages by the test-only
// WORK_PAUSE_AT variable (with a long lease, so it stays where it was held); the last start
// uses the default settings, and everything must end within two minutes of it.
const ROOT = path.resolve(import.meta.dirname, "../../..");
const ADMIN_TOKEN = "crash-test-admin-token";
const TALK = readFileSync(path.join(ROOT, "test/fixtures/media/talk.mp4"));
const FINAL = ["completed", "failed", "canceled"];

let service: LocalProcess;
let stateDir: string;
let key = "";

interface Item {
  id: string;
  status: string;
  progress?: number;
  analysis?: { sub_state: string; cancel_requested: boolean };
}

async function call(method: string, route: string, body?: unknown): Promise<Response> {
  const prefix = route.startsWith("/admin/") ? "" : "/api/v1alpha1";
  const token = route.startsWith("/admin/") ? ADMIN_TOKEN : key;
  return fetch(`${service.baseUrl}${prefix}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function json<T = Item>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** Opens an upload, PUTs the bytes and completes it. */
async function uploadTalk(name: string): Promise<string> {
  const session = await json<{ video_id: string; target: { url: string; headers: object } }>(
    await call("POST", "/videos", { filename: name, file_size: TALK.length }),
    201,
  );
  const put = await fetch(session.target.url, {
    method: "PUT",
    headers: session.target.headers as Record<string, string>,
    body: TALK,
  });
  expect(put.status).toBe(200);
  await json(await call("POST", `/videos/${session.video_id}/upload/complete`, {}), 200);
  return session.video_id;
}

/** Polls an item until `done` holds, or fails after `ms`. */
async function until(route: string, done: (item: Item) => boolean, ms: number): Promise<Item> {
  const deadline = Date.now() + ms;
  let item = await json(await call("GET", route), 200);
  while (!done(item) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    item = await json(await call("GET", route), 200);
  }
  expect(done(item), `${route}: ${JSON.stringify(item)}`).toBe(true);
  return item;
}

function createRun(videoId: string, profileId: string): Promise<Item> {
  return call("POST", "/runs", { source_ids: [videoId], profile_id: profileId }).then((res) =>
    json(res, 202),
  );
}

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "vas-crash-"));
  service = new LocalProcess(await freePort(), { STATE_DIR: stateDir, ADMIN_TOKEN });
});

afterAll(async () => {
  await service.stop("SIGTERM");
  if (process.env.CRASH_TEST_LOG) console.log(service.output);
  rmSync(stateDir, { recursive: true, force: true });
});

describe("a crash of the local process", () => {
  it("strands nothing: every in-flight video and run reaches a final state after a restart", {
    timeout: 600_000,
  }, async () => {
    // A workspace, a processed source video and a profile, before any crash.
    await service.start();
    const workspace = await json<{ id: string }>(
      await call("POST", "/admin/v1/workspaces", { name: "Crash", alpha_opt_in: true }),
      201,
    );
    key = (
      await json<{ key: string }>(
        await call("POST", "/admin/v1/keys", {
          workspace_id: workspace.id,
          type: "alpha",
          permissions: ["*"],
        }),
        201,
      )
    ).key;
    const source = await uploadTalk("source.mp4");
    await until(`/videos/${source}`, (video) => video.status === "completed", 60_000);
    const profile = await json<{ id: string }>(
      await call("POST", "/profiles", {
        name: "Vests",
        instructions: "Check the rule.",
        answer_specs: [
          {
            answer_key: "vests",
            answer_type: "verdict",
            description: "operators must wear high visibility vests",
          },
        ],
      }),
      201,
    );

    // (b) an upload completed whose processing never started; (c) a run mid-run; (d) a run
    // right after POST (local queues deliver one batch at a time, so it waits behind (c)).
    // Held work renews no lease: a long one keeps the sweep off it while the test looks.
    const hold = { WORK_LEASE_SECONDS: "900" };
    await service.stop();
    await service.start({ ...hold, WORK_PAUSE_AT: "process:start,run:step" });
    const completedUpload = await uploadTalk("completed-upload.mp4");
    const midRun = (await createRun(source, profile.id)).id;
    await until(`/runs/${midRun}`, (run) => run.status === "processing", 60_000);
    const justPosted = (await createRun(source, profile.id)).id;
    expect(await json(await call("GET", `/videos/${completedUpload}`), 200)).toMatchObject({
      status: "queued",
      progress: 0,
    });
    expect(await json(await call("GET", `/runs/${justPosted}`), 200)).toMatchObject({
      status: "queued",
      analysis: { sub_state: "accepted" },
    });

    // (a) a video mid-processing, and a running run whose cancel was asked.
    await service.stop();
    await service.start({ ...hold, WORK_PAUSE_AT: "process:probed,run:step" });
    const midProcessing = await uploadTalk("mid-processing.mp4");
    const canceling = (await createRun(source, profile.id)).id;
    await until(
      `/videos/${midProcessing}`,
      (video) => video.status === "processing" && (video.progress ?? 0) >= 30,
      60_000,
    );
    await until(`/runs/${canceling}`, (run) => run.status === "processing", 60_000);
    expect(await json(await call("POST", `/runs/${canceling}/cancel`, {}), 200)).toMatchObject({
      status: "processing",
      analysis: { cancel_requested: true },
    });
    // The first crash's leftovers are still where they were under the long lease.
    expect(await json(await call("GET", `/videos/${completedUpload}`), 200)).toMatchObject({
      status: "queued",
    });
    expect(await json(await call("GET", `/runs/${midRun}`), 200)).toMatchObject({
      status: "processing",
    });

    // Default settings (a 60 s lease, the sweep every 60 s): all of it ends within 2 minutes.
    await service.stop();
    await service.start();
    const restarted = Date.now();
    const bound = 120_000;
    for (const id of [completedUpload, midProcessing]) {
      const video = await until(`/videos/${id}`, (v) => FINAL.includes(v.status), bound);
      expect(video, id).toMatchObject({ status: "completed", progress: 100, duration: 24 });
    }
    for (const id of [justPosted, midRun]) {
      const run = await until(`/runs/${id}`, (r) => FINAL.includes(r.status), bound);
      expect(run, id).toMatchObject({ status: "completed" });
    }
    const canceled = await until(`/runs/${canceling}`, (r) => FINAL.includes(r.status), bound);
    expect(canceled).toMatchObject({ status: "canceled", analysis: { sub_state: "canceled" } });
    expect(Date.now() - restarted, "every item ended within 2 minutes of the restart").toBeLessThan(
      bound,
    );
    // Processed once: one set of answers, however often the work was re-sent.
    const answers = await json<{ data: { key: string }[] }>(
      await call("GET", `/runs/${midRun}/answers`),
      200,
    );
    expect(answers.data.map((answer) => answer.key)).toEqual(["vests"]);
  });
});
