import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, LocalProcess } from "../local-process";

// SIGKILL the real local process with work in flight, start it again on the same state, and
// every item must reach a final state. Work is held at known stages by the test-only
// WORK_PAUSE_AT variable (with a long lease, so it stays where it was held); the last start
// uses the default settings, and everything must end within two minutes of it. Both adapter
// modes run side by side, each with its own process and state, so their lease waits overlap.
const ROOT = path.resolve(import.meta.dirname, "../../..");
const ADMIN_TOKEN = "crash-test-admin-token";
const TALK = readFileSync(path.join(ROOT, "test/fixtures/media/talk.mp4"));
const FINAL = ["completed", "failed", "canceled"];

const MODES = ["local", "production"] as const;

interface Item {
  id: string;
  status: string;
  progress?: number;
  analysis?: { sub_state: string; cancel_requested: boolean };
}

async function json<T = Item>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** One process of one adapter mode, and the key its test works with. */
class Session {
  key = "";
  constructor(readonly service: LocalProcess) {}

  call(method: string, route: string, body?: unknown): Promise<Response> {
    const prefix = route.startsWith("/admin/") ? "" : "/api/v1alpha1";
    const token = route.startsWith("/admin/") ? ADMIN_TOKEN : this.key;
    return fetch(`${this.service.baseUrl}${prefix}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  /** Opens an upload, PUTs the bytes and completes it. */
  async uploadTalk(name: string): Promise<string> {
    const session = await json<{ video_id: string; target: { url: string; headers: object } }>(
      await this.call("POST", "/videos", { filename: name, file_size: TALK.length }),
      201,
    );
    const put = await fetch(session.target.url, {
      method: "PUT",
      headers: session.target.headers as Record<string, string>,
      body: TALK,
    });
    expect(put.status).toBe(200);
    await json(await this.call("POST", `/videos/${session.video_id}/upload/complete`, {}), 200);
    return session.video_id;
  }

  /** Polls an item until `done` holds, or fails after `ms`. */
  async until(route: string, done: (item: Item) => boolean, ms: number): Promise<Item> {
    const deadline = Date.now() + ms;
    let item = await json(await this.call("GET", route), 200);
    while (!done(item) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      item = await json(await this.call("GET", route), 200);
    }
    expect(done(item), `${route}: ${JSON.stringify(item)}`).toBe(true);
    return item;
  }

  async get(route: string): Promise<Item> {
    return json(await this.call("GET", route), 200);
  }

  createRun(videoId: string, profileId: string): Promise<Item> {
    return this.call("POST", "/runs", { source_ids: [videoId], profile_id: profileId }).then(
      (res) => json(res, 202),
    );
  }
}

describe("a crash of the local process", () => {
  it.concurrent.for(MODES)(
    "strands nothing: every in-flight video and run reaches a final state after a restart (%s adapters)",
    {
      timeout: 600_000,
    },
    async (adapters, { onTestFinished }) => {
      const stateDir = mkdtempSync(path.join(tmpdir(), "vas-crash-"));
      const service = new LocalProcess(await freePort(), {
        STATE_DIR: stateDir,
        ADMIN_TOKEN,
        ADAPTERS: adapters,
      });
      // The test context's hook: with tests running concurrently, the global one may attach to
      // the other mode's test.
      onTestFinished(async () => {
        await service.stop("SIGTERM");
        if (process.env.CRASH_TEST_LOG) console.log(service.output);
        rmSync(stateDir, { recursive: true, force: true });
      });
      const s = new Session(service);

      // A workspace, a processed source video and a profile, before any crash.
      await service.start();
      const workspace = await json<{ id: string }>(
        await s.call("POST", "/admin/v1/workspaces", { name: "Crash", alpha_opt_in: true }),
        201,
      );
      s.key = (
        await json<{ key: string }>(
          await s.call("POST", "/admin/v1/keys", {
            workspace_id: workspace.id,
            type: "alpha",
            permissions: ["*"],
          }),
          201,
        )
      ).key;
      const source = await s.uploadTalk("source.mp4");
      await s.until(`/videos/${source}`, (video) => video.status === "completed", 60_000);
      const profile = await json<{ id: string }>(
        await s.call("POST", "/profiles", {
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
      const completedUpload = await s.uploadTalk("completed-upload.mp4");
      const midRun = (await s.createRun(source, profile.id)).id;
      await s.until(`/runs/${midRun}`, (run) => run.status === "processing", 60_000);
      const justPosted = (await s.createRun(source, profile.id)).id;
      expect(await s.get(`/videos/${completedUpload}`)).toMatchObject({
        status: "queued",
        progress: 0,
      });
      expect(await s.get(`/runs/${justPosted}`)).toMatchObject({
        status: "queued",
        analysis: { sub_state: "accepted" },
      });

      // (a) a video mid-processing, and a running run whose cancel was asked.
      await service.stop();
      await service.start({ ...hold, WORK_PAUSE_AT: "process:probed,run:step" });
      const midProcessing = await s.uploadTalk("mid-processing.mp4");
      const canceling = (await s.createRun(source, profile.id)).id;
      await s.until(
        `/videos/${midProcessing}`,
        (video) => video.status === "processing" && (video.progress ?? 0) >= 30,
        60_000,
      );
      await s.until(`/runs/${canceling}`, (run) => run.status === "processing", 60_000);
      expect(await json(await s.call("POST", `/runs/${canceling}/cancel`, {}), 200)).toMatchObject({
        status: "processing",
        analysis: { cancel_requested: true },
      });
      // The first crash's leftovers are still where they were under the long lease.
      expect(await s.get(`/videos/${completedUpload}`)).toMatchObject({ status: "queued" });
      expect(await s.get(`/runs/${midRun}`)).toMatchObject({ status: "processing" });

      // Default settings (a 60 s lease, the sweep every 60 s): all of it ends within 2 minutes.
      await service.stop();
      await service.start();
      const restarted = Date.now();
      const bound = 120_000;
      for (const id of [completedUpload, midProcessing]) {
        const video = await s.until(`/videos/${id}`, (v) => FINAL.includes(v.status), bound);
        expect(video, id).toMatchObject({ status: "completed", progress: 100, duration: 24 });
      }
      for (const id of [justPosted, midRun]) {
        const run = await s.until(`/runs/${id}`, (r) => FINAL.includes(r.status), bound);
        expect(run, id).toMatchObject({ status: "completed" });
      }
      const canceled = await s.until(`/runs/${canceling}`, (r) => FINAL.includes(r.status), bound);
      expect(canceled).toMatchObject({ status: "canceled", analysis: { sub_state: "canceled" } });
      expect(
        Date.now() - restarted,
        "every item ended within 2 minutes of the restart",
      ).toBeLessThan(bound);
      // Processed once: one set of answers, however often the work was re-sent.
      const answers = await json<{ data: { key: string }[] }>(
        await s.call("GET", `/runs/${midRun}/answers`),
        200,
      );
      expect(answers.data.map((answer) => answer.key)).toEqual(["vests"]);
    },
  );
});
