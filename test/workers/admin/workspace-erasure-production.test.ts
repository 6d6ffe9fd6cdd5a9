import { describe, expect, it } from "vitest";
import { csvImportKey } from "../../../src/lib/object-keys";
import { createPorts } from "../../../src/ports";
import { deleteWorkspace } from "../../../src/services/deletion/delete-workspace";
import {
  eraseWorkspace,
  type WorkspaceErasureResult,
} from "../../../src/services/deletion/erase-workspace";
import { createDeps } from "../../../src/services/deps";
import { putObjects, seedVectorizedVideo } from "../../helpers/deletion";
import { insertVideos } from "../../helpers/factories";
import { newTenant } from "../../helpers/harness";
import { countingBindings } from "../../helpers/subrequests";
import { LEASE_MS, recordingEnv } from "../../helpers/sweep";
import { keysMentioning, rowsOfWorkspace } from "../../helpers/workspace-deletion";

const OPERATOR = { actor: "admin", requestId: null };

const SEGMENTS = 1_500;
const FRAMES = 1_050;
const IMPORTS = 1_050;
const VIDEOS = 25;

describe("a workspace's erasure with the production adapters", () => {
  it("deletes vectors through Vectorize and objects in pages, a bounded delivery at a time", async () => {
    const { workspaceId } = await newTenant(["READ_VIDEOS"]);
    const [videoId = "", ...others] = await insertVideos(workspaceId, VIDEOS);
    // More objects than one R2 list page holds, under a video's prefix and the workspace's own.
    const { binding, vectorIndex, segmentIds } = await seedVectorizedVideo(workspaceId, videoId, {
      segments: SEGMENTS,
      frames: FRAMES,
    });
    await putObjects(
      Array.from({ length: IMPORTS }, (_, i) => csvImportKey(workspaceId, `rbi_${i}`)),
    );
    await putObjects(others.map((id) => `videos/${id}/source`));
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
    expect(new Set(binding.deletes.flat())).toEqual(new Set(segmentIds));
    const probe = Float32Array.from([1, 0, 0, 0]);
    expect(await vectorIndex.query(workspaceId, probe, { topK: 100 })).toEqual([]);
    expect(await keysMentioning(ids)).toEqual([]);
    expect(Object.values(await rowsOfWorkspace(workspaceId)).every((n) => n === 0)).toBe(true);
  }, 120_000);
});
