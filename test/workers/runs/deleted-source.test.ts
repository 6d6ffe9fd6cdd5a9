import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPorts } from "../../../src/ports";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { createDeps } from "../../../src/services/deps";
import { executeRun } from "../../../src/services/runs/execute-run";
import { deleteVideo } from "../../helpers/deletion";
import { expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";

describe("a run over a video deleted while it waits", () => {
  it("finishes without the video and says so", async () => {
    const { api, workspaceId } = await newTenant(["*"]);
    const kept = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
    const gone = (await waitForFinal(api, (await uploadFixture(api, "minute.mp4")).id)).id;
    const profileId = await createProfile(api);
    // Deferred, so the test delivers its first message itself, after the deletion.
    const run = await expectJson<RunDto>(
      await api.post("/runs", {
        source_ids: [kept, gone],
        profile_id: profileId,
        execute_now: false,
      }),
      202,
    );
    expect((await deleteVideo(api, gone)).status).toBe(204);
    const deps = createDeps(env, createPorts(env));
    await executeRun(deps, { type: "run-analysis", run_id: run.id, workspace_id: workspaceId });
    const done = await waitForRun(api, run.id);
    expect(done.status, JSON.stringify(done)).toBe("completed");
    expect(done.notices).toContainEqual(
      expect.objectContaining({ code: "source_deleted", video_id: gone }),
    );
    const answers = await expectJson<{ data: unknown[] }>(
      await api.get(`/runs/${run.id}/answers?limit=100`),
      200,
    );
    expect(answers.data.length).toBeGreaterThan(0);
    // No answer cites, quotes or links the deleted video.
    expect(JSON.stringify(answers.data)).not.toContain(gone);
  });
});
