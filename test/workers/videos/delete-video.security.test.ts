import { describe, expect, it } from "vitest";
import { PERMISSIONS } from "../../../src/domain/caller";
import { deleteVideo, tombstone } from "../../helpers/deletion";
import { insertVideos } from "../../helpers/factories";
import { client, createKey, expectJson, newTenant } from "../../helpers/harness";
import { expectRefused } from "../../helpers/security";

describe("DELETE /videos/{video_id} security", () => {
  it("refuses no key, keys without DELETE_VIDEOS and other workspaces, and changes nothing", async () => {
    const owner = await newTenant(["READ_VIDEOS"]);
    const [id = ""] = await insertVideos(owner.workspaceId, 1);
    await expectRefused(await deleteVideo(client(null), id), 401);
    const allBut = await createKey(owner.workspaceId, {
      permissions: PERMISSIONS.filter((permission) => permission !== "DELETE_VIDEOS"),
    });
    await expectRefused(await deleteVideo(client(allBut.key), id), 403);
    const stranger = await newTenant(["*"]);
    await expectRefused(await deleteVideo(stranger.api, id), 404);
    await expectJson(await owner.api.get(`/videos/${id}`), 200);
    expect((await tombstone(id))?.status).toBe("completed");
  });

  it("needs DELETE_VIDEOS alone: neither upload nor read permission", async () => {
    const owner = await newTenant(["READ_VIDEOS"]);
    const [id = ""] = await insertVideos(owner.workspaceId, 1);
    const deleter = await createKey(owner.workspaceId, { permissions: ["DELETE_VIDEOS"] });
    const res = await deleteVideo(client(deleter.key), id);
    expect(res.status, await res.text()).toBe(204);
    expect((await tombstone(id))?.status).toBe("deleted");
  });
});
