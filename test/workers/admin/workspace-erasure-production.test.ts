import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database, runBatch } from "../../../src/db/client";
import { replaceSegmentsStatements } from "../../../src/db/repos/segments";
import { csvImportKey } from "../../../src/lib/object-keys";
import { createPorts } from "../../../src/ports";
import { VectorizeIndex } from "../../../src/ports/vector-index/vectorize";
import { deleteWorkspace } from "../../../src/services/deletion/delete-workspace";
import {
  eraseWorkspace,
  type WorkspaceErasureResult,
} from "../../../src/services/deletion/erase-workspace";
import { createDeps } from "../../../src/services/deps";
import { insertVideos, segmentRow } from "../../helpers/factories";
import { newTenant } from "../../helpers/harness";
import { countingBindings } from "../../helpers/subrequests";
import { LEASE_MS, recordingEnv } from "../../helpers/sweep";
import { keysMentioning, rowsOfWorkspace } from "../../helpers/workspace-deletion";
import { RecordingVectorize } from "../search-ports/recording-fakes";

const OPERATOR = { actor: "admin", requestId: null };

const SEGMENTS = 1_500;
const FRAMES = 1_050;
const IMPORTS = 1_050;
const VIDEOS = 25;

async function putMany(keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 50) {
    await Promise.all(keys.slice(i, i + 50).map((key) => env.MEDIA_BUCKET.put(key, "x")));
  }
}

describe("a workspace's erasure with the production adapters", () => {
  it("deletes vectors through Vectorize and objects in pages, a bounded delivery at a time", async () => {
    const { workspaceId } = await newTenant(["READ_VIDEOS"]);
    const [videoId = "", ...others] = await insertVideos(workspaceId, VIDEOS);
    const db = database(env.DB);
    const rows = Array.from({ length: SEGMENTS }, (_, i) => segmentRow(workspaceId, videoId, i));
    await runBatch(db, replaceSegmentsStatements(db, videoId, rows));
    const binding = new RecordingVectorize();
    const vectorIndex = new VectorizeIndex(binding, { sleep: async () => undefined });
    await vectorIndex.upsert(
      workspaceId,
      rows.map((row) => ({
        id: row.id,
        values: Float32Array.from([1, 0, 0, 0]),
        metadata: { video_id: videoId },
      })),
    );
    // More objects than one R2 list page holds, under a video's prefix and the workspace's own.
    await putMany(Array.from({ length: FRAMES }, (_, i) => `videos/${videoId}/frames/${i}.jpg`));
    await putMany(Array.from({ length: IMPORTS }, (_, i) => csvImportKey(workspaceId, `rbi_${i}`)));
    await putMany(others.map((id) => `videos/${id}/source`));
    const ids = new Set([workspaceId, videoId, ...others]);

    const recording = recordingEnv();
    const counting = countingBindings(recording.env);
    const base = createDeps(counting.env, { ...createPorts(counting.env), vectorIndex });
    const at = Date.now() + 2 * LEASE_MS;
    const deps = { ...base, clock: { now: () => at } };
    await deleteWorkspace(base, workspaceId, OPERATOR);
    const sent = recording.queues.PROCESSING_QUEUE.sent;
    sent.length = 0;

    const message = { type: "erase-workspace" as const, workspace_id: workspaceId };
    const perDelivery: number[] = [];
    let result: WorkspaceErasureResult = "continued";
    while (result === "continued" && perDelivery.length < 20) {
      for (const name of Object.keys(counting.counts)) delete counting.counts[name];
      result = await eraseWorkspace(deps, message);
      perDelivery.push(counting.total());
    }
    expect(result).toBe("erased");
    // More steps than one delivery takes (27 > STEPS_PER_DELIVERY): each sent the next.
    expect(perDelivery.length).toBeGreaterThanOrEqual(3);
    expect(sent).toEqual(Array.from({ length: perDelivery.length - 1 }, () => message));
    for (const count of perDelivery) expect(count).toBeLessThan(1_000);

    expect(binding.deletes.map((batch) => batch.length)).toEqual([1_000, 500]);
    expect(new Set(binding.deletes.flat())).toEqual(new Set(rows.map((row) => row.id)));
    const probe = Float32Array.from([1, 0, 0, 0]);
    expect(await vectorIndex.query(workspaceId, probe, { topK: 100 })).toEqual([]);
    expect(await keysMentioning(ids)).toEqual([]);
    expect(Object.values(await rowsOfWorkspace(workspaceId)).every((n) => n === 0)).toBe(true);
  }, 120_000);
});
