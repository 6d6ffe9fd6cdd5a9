import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { VideoDto } from "../../../src/routes/videos/schemas";
import type { UsageReportDto } from "../../../src/services/presenters/usage";
import { attemptDelivery } from "../../../src/services/webhooks/deliver";
import { dispatchPendingEvents } from "../../../src/services/webhooks/enqueue-attempts";
import { deleteVideo } from "../../helpers/deletion";
import { admin, type Client, expectJson, newTenant } from "../../helpers/harness";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { startWorkflowRun, waitForWorkflowRun, workflowOver } from "../findings/helpers";
import { emitEvent, registerEndpoint, scriptedTransport, webhookWorld } from "../webhooks/helpers";

/** GET /usage with a query string. */
async function usage(api: Client, query = ""): Promise<UsageReportDto> {
  return expectJson<UsageReportDto>(await api.get(`/usage${query}`), 200);
}

/** Stores counters as the rollup holds them, for reads over days no test can wait for. */
async function storeDays(workspaceId: string, rows: [string, string, string, number][]) {
  for (const [day, metric, key, value] of rows)
    await env.DB.prepare(
      "INSERT INTO usage_daily (workspace_id, day, metric, key, value) VALUES (?, ?, ?, ?, ?)",
    )
      .bind(workspaceId, day, metric, key, value)
      .run();
}

describe("GET /usage", () => {
  it("counts what the workspace did, and keeps it counted when the video is deleted", async () => {
    const { api, workspaceId } = await newTenant(["*"]);
    const video = await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id);
    expect(video.status).toBe("completed");
    const size = fixtureBytes("talk.mp4").byteLength;
    await expectJson(await api.post("/search", { query: "loading dock" }), 200);
    const { workflowId } = await workflowOver(api, [video.id]);
    const run = await waitForWorkflowRun(api, (await startWorkflowRun(api, workflowId)).id);
    expect(run.status).toBe("completed");
    const findings = await env.DB.prepare("SELECT count(*) AS n FROM findings WHERE run_id = ?")
      .bind(run.id)
      .first<{ n: number }>();
    expect(findings?.n).toBeGreaterThan(0);
    await registerEndpoint(api);
    const world = webhookWorld();
    await emitEvent(workspaceId, "video.indexed", { video: { id: video.id } });
    await dispatchPendingEvents(world.deps);
    const { transport } = scriptedTransport([
      { status: 500, retryAfter: null },
      { status: 204, retryAfter: null },
    ]);
    for (let round = 0; round < 2; round++) {
      world.clock.at += 10_000;
      for (const message of world.queue.take())
        await attemptDelivery(world.deps, transport, message);
    }

    const report = await usage(api);
    expect(report).toMatchObject({ workspace_id: workspaceId, granularity: "day" });
    expect(report.data).toHaveLength(30);
    expect(report.data.at(-1)?.end).toBe(report.to);
    expect(report.totals).toMatchObject({
      start: report.from,
      end: report.to,
      videos_uploaded: 1,
      bytes_stored: size,
      bytes_stored_peak: size,
      processed_seconds: video.duration,
      // The local engine hears no speech and sees no pictures, and calls no model.
      heard_seconds: 0,
      seen_seconds: 0,
      models: [],
      searches: 1,
      runs: 1,
      findings: findings?.n,
      webhook_attempts: 2,
      webhook_deliveries: 1,
    });
    expect(report.bytes_stored_now).toBe(size);
    const own = await expectJson<VideoDto>(await api.get(`/videos/${video.id}`), 200);
    expect(own.usage).toEqual({
      processed_seconds: video.duration,
      heard_seconds: 0,
      seen_seconds: 0,
      models: [],
    });

    expect((await deleteVideo(api, video.id)).status).toBe(204);
    const after = await usage(api);
    expect(after.bytes_stored_now).toBe(0);
    expect(after.totals).toMatchObject({
      videos_uploaded: 1,
      bytes_stored: 0,
      bytes_stored_peak: size,
      processed_seconds: video.duration,
      runs: 1,
      findings: findings?.n,
    });
  });

  it("walks bytes stored across days and groups days into calendar months cut to the range", async () => {
    const { api, workspaceId } = await newTenant(["VIEW_USAGE"]);
    await storeDays(workspaceId, [
      ["2026-01-10", "bytes_added", "", 100],
      ["2026-01-10", "bytes_peak", "", 100],
      ["2026-01-31", "searches", "", 2],
      ["2026-02-03", "bytes_added", "", 50],
      ["2026-02-03", "bytes_peak", "", 150],
      ["2026-02-03", "bytes_removed", "", 120],
      ["2026-02-03", "model_calls", "@cf/baai/bge-m3", 3],
      ["2026-02-04", "model_calls", "@cf/baai/bge-m3", 1],
      ["2026-02-04", "audio_seconds", "@cf/openai/whisper-large-v3-turbo", 30.5],
      ["2026-02-04", "model_calls", "@cf/openai/whisper-large-v3-turbo", 1],
    ]);

    const days = await usage(api, "?from=2026-02-02&to=2026-02-04");
    expect(days.data.map((d) => [d.start, d.bytes_stored, d.bytes_stored_peak])).toEqual([
      ["2026-02-02", 100, 100],
      ["2026-02-03", 30, 150],
      ["2026-02-04", 30, 30],
    ]);
    expect(days.data[1]?.models).toEqual([
      { model: "@cf/baai/bge-m3", calls: 3, input_tokens: 0, output_tokens: 0, audio_seconds: 0 },
    ]);
    expect(days.totals.models).toEqual([
      { model: "@cf/baai/bge-m3", calls: 4, input_tokens: 0, output_tokens: 0, audio_seconds: 0 },
      {
        model: "@cf/openai/whisper-large-v3-turbo",
        calls: 1,
        input_tokens: 0,
        output_tokens: 0,
        audio_seconds: 30.5,
      },
    ]);
    expect(days.totals).toMatchObject({ bytes_stored: 30, bytes_stored_peak: 150, searches: 0 });
    expect(days.bytes_stored_now).toBe(30);

    // A date-time counts as the UTC day it falls on.
    const months = await usage(
      api,
      `?from=${encodeURIComponent("2026-01-20T23:30:00-02:00")}&to=2026-03-05&granularity=month`,
    );
    expect(months.from).toBe("2026-01-21");
    expect(months.data.map((m) => [m.start, m.end, m.searches, m.bytes_stored])).toEqual([
      ["2026-01-21", "2026-01-31", 2, 100],
      ["2026-02-01", "2026-02-28", 0, 30],
      ["2026-03-01", "2026-03-05", 0, 30],
    ]);
    expect(months.data.map((m) => m.bytes_stored_peak)).toEqual([100, 150, 30]);
  });

  it("answers the operator with the same body for any workspace", async () => {
    const { api, workspaceId } = await newTenant(["VIEW_USAGE"]);
    await storeDays(workspaceId, [["2026-05-01", "runs", "", 4]]);
    const query = "?from=2026-04-30&to=2026-05-01";
    const own = await usage(api, query);
    const res = await admin("GET", `/workspaces/${workspaceId}/usage${query}`);
    expect(await expectJson<UsageReportDto>(res, 200)).toEqual(own);
    expect(own.totals.runs).toBe(4);
  });
});
