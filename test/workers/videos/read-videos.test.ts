import { describe, expect, it } from "vitest";
import { insertVideos } from "../../helpers/factories";
import { expectJson, expectProblem, newTenant } from "../../helpers/harness";

describe("GET /videos and GET /videos/{video_id}", () => {
  it("filters the list by status", async () => {
    const { api, workspaceId } = await newTenant(["READ_VIDEOS"]);
    const failed = await insertVideos(workspaceId, 2, {
      status: "failed",
      error: {
        code: "corrupt-media",
        title: "Unreadable",
        detail: "moov is truncated",
        next_action: "Upload again.",
      },
    });
    await insertVideos(workspaceId, 3, { status: "completed", duration: 12.5, frameCount: 300 });
    const page = await expectJson<{ data: { id: string; status: string }[] }>(
      await api.get("/videos?status=failed"),
      200,
    );
    expect(page.data.map((v) => v.id)).toEqual([...failed].reverse());
  });

  it("shows a video's measurements and error", async () => {
    const { api, workspaceId } = await newTenant(["READ_VIDEOS"]);
    const [done] = await insertVideos(workspaceId, 1, { duration: 12.5, frameCount: 300 });
    const [broken] = await insertVideos(workspaceId, 1, {
      status: "failed",
      error: {
        code: "corrupt-media",
        title: "Unreadable",
        detail: "moov is truncated",
        next_action: "Upload again.",
      },
    });
    const video = await expectJson(await api.get(`/videos/${done}`), 200);
    expect(video).toMatchObject({
      id: done,
      status: "completed",
      duration: 12.5,
      frame_count: 300,
      progress: 100,
    });
    const failed = await expectJson(await api.get(`/videos/${broken}`), 200);
    expect(failed).toMatchObject({
      status: "failed",
      error: { code: "corrupt-media" },
      error_message: "moov is truncated",
    });
    // Processing never stored a thumbnail, so there is no URL to point at it.
    expect(failed).not.toHaveProperty("thumbnail_url");
    expect(video).toHaveProperty("thumbnail_url");
  });

  it("keeps workspaces apart", async () => {
    const mine = await newTenant(["READ_VIDEOS"]);
    const theirs = await newTenant(["READ_VIDEOS"]);
    const [foreign] = await insertVideos(theirs.workspaceId, 1);
    await expectProblem(await mine.api.get(`/videos/${foreign}`), 404, "resource-not-found");
    expect(await expectJson(await mine.api.get("/videos"), 200)).toMatchObject({ data: [] });
    await expectProblem(
      await mine.api.get("/videos/vid_00000000000000000000000000"),
      404,
      "resource-not-found",
    );
  });
});
