import { describe, expect, it } from "vitest";
import { deleteVideo, storedKeys, tombstone, waitForErasure } from "../../helpers/deletion";
import { insertVideos } from "../../helpers/factories";
import { expectProblem, newTenant } from "../../helpers/harness";
import { startUpload, uploadTo } from "../../helpers/uploads";
import { createRulebook } from "../rulebooks/bodies";

describe("DELETE /videos/{video_id} errors", () => {
  it("answers 404 for an unknown id and for a video deleted before", async () => {
    const { api, workspaceId } = await newTenant(["READ_VIDEOS", "DELETE_VIDEOS"]);
    await expectProblem(
      await deleteVideo(api, "vid_00000000000000000000000000"),
      404,
      "resource-not-found",
    );
    const [id = ""] = await insertVideos(workspaceId, 1);
    expect((await deleteVideo(api, id)).status).toBe(204);
    const again = await expectProblem(await deleteVideo(api, id), 404, "resource-not-found");
    expect(again.detail).toContain(id);
    await waitForErasure(id);
  });

  it("aborts an upload in progress: completing it later is refused and the video stays deleted", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS", "DELETE_VIDEOS"]);
    const bytes = new TextEncoder().encode("not really a video, but bytes all the same");
    const session = await startUpload(api, "clip.mp4", bytes.byteLength);
    await uploadTo(session.targets[0] ?? { url: "", headers: {} }, bytes);
    expect((await deleteVideo(api, session.video_id)).status).toBe(204);
    // The session is gone with the video: it answers as absent, filename and all.
    await expectProblem(
      await api.get(`/videos/${session.video_id}/upload`),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await api.post(`/videos/${session.video_id}/upload/complete`, {}),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await api.post(`/videos/${session.video_id}/upload/targets`),
      404,
      "resource-not-found",
    );
    await expectProblem(await api.get(`/videos/${session.video_id}`), 404, "resource-not-found");
    await waitForErasure(session.video_id);
    expect((await tombstone(session.video_id))?.status).toBe("deleted");
    expect(await storedKeys(session.video_id)).toEqual([]);
  });

  it("refuses a workflow over a deleted video with 409 naming it", async () => {
    const { api, workspaceId } = await newTenant(["*"]);
    const [kept = "", gone = ""] = await insertVideos(workspaceId, 2);
    expect((await deleteVideo(api, gone)).status).toBe(204);
    const rulebook = await createRulebook(api);
    const problem = await expectProblem(
      await api.post("/workflows", {
        name: "Dock review",
        playbook: "Check the dock.",
        rulebook_id: rulebook.id,
        source_ids: [kept, gone],
      }),
      409,
      "video-deleted",
    );
    expect(problem.detail).toContain(gone);
  });
});
