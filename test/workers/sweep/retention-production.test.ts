import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database, runBatch } from "../../../src/db/client";
import { replaceSegmentsStatements } from "../../../src/db/repos/segments";
import type { EraseVideoMessage } from "../../../src/lib/queue-messages";
import { createPorts } from "../../../src/ports";
import { VectorizeIndex } from "../../../src/ports/vector-index/vectorize";
import { eraseVideo } from "../../../src/services/deletion/erase-video";
import { createDeps } from "../../../src/services/deps";
import { runSweep } from "../../../src/services/sweep";
import { storedKeys, storedRows } from "../../helpers/deletion";
import { insertVideos, segmentRow } from "../../helpers/factories";
import { admin, expectJson, newTenant } from "../../helpers/harness";
import { outbox } from "../../helpers/processing";
import { recordingEnv } from "../../helpers/sweep";
import { RecordingVectorize } from "../search-ports/recording-fakes";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("the retention sweep with the production vector index", () => {
  it("erases a video past retention from Vectorize and announces it", async () => {
    const { workspaceId } = await newTenant(["READ_VIDEOS"]);
    await expectJson(
      await admin("PATCH", `/workspaces/${workspaceId}`, { retention_days: 30 }),
      200,
    );
    const [videoId = "", youngId = ""] = await insertVideos(workspaceId, 2);
    await env.DB.prepare("UPDATE videos SET created_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 31 * DAY_MS).toISOString(), videoId)
      .run();
    const db = database(env.DB);
    const rows = Array.from({ length: 5 }, (_, i) => segmentRow(workspaceId, videoId, i));
    await runBatch(db, replaceSegmentsStatements(db, videoId, rows));
    const binding = new RecordingVectorize();
    const vectorIndex = new VectorizeIndex(binding, { sleep: async () => undefined });
    const probe = Float32Array.from([1, 0, 0, 0]);
    await vectorIndex.upsert(
      workspaceId,
      rows.map((row) => ({ id: row.id, values: probe, metadata: { video_id: videoId } })),
    );
    await env.MEDIA_BUCKET.put(`videos/${videoId}/source`, "bytes");

    const target = recordingEnv();
    const deps = createDeps(target.env, { ...createPorts(target.env), vectorIndex });
    const report = await runSweep(deps);
    expect(report.retention.deleted).toEqual([videoId]);
    // The served source goes with the mark, before erasure runs.
    expect(await storedKeys(videoId)).toEqual([]);
    const sent = target.queues.PROCESSING_QUEUE.sent;
    const message: EraseVideoMessage = {
      type: "erase-video",
      video_id: videoId,
      workspace_id: workspaceId,
    };
    expect(sent).toEqual([message]);
    expect(await eraseVideo(deps, message)).toBe("erased");

    expect(binding.deletes.flat().sort()).toEqual(rows.map((row) => row.id).sort());
    expect(await vectorIndex.query(workspaceId, probe, { topK: 10, videoIds: [videoId] })).toEqual(
      [],
    );
    expect(await storedRows(videoId)).toMatchObject({ video_segments: 0, segment_text: 0 });
    const events = (await outbox(workspaceId)).filter((event) => event.type === "video.deleted");
    expect(events.map((event) => event.data.video.id)).toEqual([videoId]);
    const young = await env.DB.prepare("SELECT status FROM videos WHERE id = ?")
      .bind(youngId)
      .first<{ status: string }>();
    expect(young?.status).toBe("completed");
  });
});
