import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { adminClient, type Client, fixture, newTenant, poll, upload } from "../local-client";
import { freePort, LocalProcess } from "../local-process";

// SIGKILL the real local process with work in flight, start it again on the same state, and
// every item must reach a final state. Work is held at known stages by the test-only
// WORK_PAUSE_AT variable (with a long lease, so it stays where it was held); the last start
// uses the default settings, and everything must end within two minutes of it. Both adapter
// modes run side by side, each with its own process and state, so their lease waits overlap.
const ADMIN_TOKEN = "crash-test-admin-token";
const TALK = fixture("talk.mp4");
const FINAL = ["completed", "failed", "canceled"];

const MODES = ["local", "production"] as const;

interface Item {
  id: string;
  status: string;
  progress?: number;
  analysis?: { sub_state: string; cancel_requested: boolean };
}

/** The client of one adapter mode's workspace, and the steps its test takes. */
class Session {
  constructor(readonly api: Client) {}

  /** Opens an upload, PUTs the bytes and completes it. */
  async uploadTalk(name: string): Promise<string> {
    return (await upload(this.api, name, TALK)).videoId;
  }

  /** Polls an item until `done` holds, or fails after `ms`. */
  async until(route: string, done: (item: Item) => boolean, ms: number): Promise<Item> {
    const item = await poll(() => this.get(route), done, { ms });
    expect(done(item), `${route}: ${JSON.stringify(item)}`).toBe(true);
    return item;
  }

  get(route: string): Promise<Item> {
    return this.api.get(route);
  }

  createRun(videoId: string, profileId: string): Promise<Item> {
    return this.api.expect(202, "POST", "/runs", { source_ids: [videoId], profile_id: profileId });
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

      // A workspace, a processed source video and a profile, before any crash.
      await service.start();
      const s = new Session((await newTenant(adminClient(service, ADMIN_TOKEN), "Crash")).api);
      const source = await s.uploadTalk("source.mp4");
      await s.until(`/videos/${source}`, (video) => video.status === "completed", 60_000);
      const profile: { id: string } = await s.api.expect(201, "POST", "/profiles", {
        name: "Vests",
        instructions: "Check the rule.",
        answer_specs: [
          {
            answer_key: "vests",
            answer_type: "verdict",
            description: "operators must wear high visibility vests",
          },
        ],
      });

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
      expect(await s.api.expect(200, "POST", `/runs/${canceling}/cancel`, {})).toMatchObject({
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
      const answers: { data: { key: string }[] } = await s.api.get(`/runs/${midRun}/answers`);
      expect(answers.data.map((answer) => answer.key)).toEqual(["vests"]);
    },
  );
});
