import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectProblem, newTenant } from "../../helpers/harness";
import { startUpload, uploadTo } from "../../helpers/uploads";

async function videoCount(workspaceId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM videos WHERE workspace_id = ?")
    .bind(workspaceId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("Idempotency-Key on the upload POSTs", () => {
  it("replays POST /videos byte for byte, for any number of parallel duplicates", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 1000 }),
        async (n, size) => {
          const { api, workspaceId } = await newTenant(["UPLOAD_VIDEOS"]);
          const responses = await Promise.all(
            Array.from({ length: n }, () =>
              api.post(
                "/videos",
                { filename: "a.mp4", file_size: size },
                { "Idempotency-Key": "upload-1" },
              ),
            ),
          );
          const bodies = await Promise.all(responses.map((res) => res.text()));
          expect(responses.map((res) => res.status)).toEqual(Array(n).fill(201));
          expect(new Set(bodies).size).toBe(1);
          expect(await videoCount(workspaceId)).toBe(1);
        },
      ),
      { numRuns: 6 },
    );
  });

  it("answers 422 for the same key on another concrete path", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS"]);
    const one = await startUpload(api, "one.mp4", 3);
    const two = await startUpload(api, "two.mp4", 3);
    await uploadTo(one.targets[0] ?? { url: "", headers: {} }, "abc");
    await uploadTo(two.targets[0] ?? { url: "", headers: {} }, "abc");
    const key = { "Idempotency-Key": "complete-1" };
    expect((await api.post(`/videos/${one.video_id}/upload/complete`, {}, key)).status).toBe(200);
    await expectProblem(
      await api.post(`/videos/${two.video_id}/upload/complete`, {}, key),
      422,
      "idempotency-key-mismatch",
    );
    const replay = await api.post(`/videos/${one.video_id}/upload/complete`, {}, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });

  it("lets a failed complete be retried with the same key once the bytes are there", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS"]);
    const session = await startUpload(api, "late.mp4", 3);
    const key = { "Idempotency-Key": "complete-2" };
    await expectProblem(
      await api.post(`/videos/${session.video_id}/upload/complete`, {}, key),
      409,
      "upload-incomplete",
    );
    await uploadTo(session.targets[0] ?? { url: "", headers: {} }, "abc");
    const done = await api.post(`/videos/${session.video_id}/upload/complete`, {}, key);
    expect(done.status).toBe(200);
    expect(done.headers.get("idempotent-replayed")).toBeNull();
  });
});
