import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sourceKey } from "../../../src/lib/object-keys";
import { expectJson, expectProblem, newTenant, workerFetch } from "../../helpers/harness";
import { putToTarget, startUpload, uploadTo } from "../../helpers/uploads";

describe("direct uploads (strategy direct, up to 200 MiB)", () => {
  it("opens a session with one target, takes the PUT through the gateway, completes once", async () => {
    const { api, workspaceId } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const bytes = new TextEncoder().encode("not really a video, but 41 bytes long!!!");
    const session = await startUpload(api, "clip.mp4", bytes.byteLength);
    expect(session).toMatchObject({
      state: "open",
      strategy: "direct",
      file_size: bytes.byteLength,
      total_chunks: 1,
      content_type: "video/mp4",
      completed_parts: 0,
      received_parts: [],
      uploaded_bytes: 0,
      verified_bytes: 0,
    });
    expect(session.video_id).toMatch(/^vid_/);
    expect(session.targets).toHaveLength(1);
    expect(session.target).toEqual(session.targets[0]);
    expect(session.target).toMatchObject({
      method: "put",
      part_number: 1,
      headers: { "content-type": "video/mp4" },
    });
    // Storage keys and upload ids appear only inside the presigned URLs.
    expect(JSON.stringify({ ...session, target: null, targets: null })).not.toContain("videos/");

    const listed = await expectJson<{ data: { id: string; status: string }[] }>(
      await api.get("/videos"),
      200,
    );
    expect(listed.data).toEqual([
      expect.objectContaining({ id: session.video_id, status: "queued" }),
    ]);

    await uploadTo(session.targets[0] ?? { url: "", headers: {} }, bytes);
    const video = await expectJson(
      await api.post(`/videos/${session.video_id}/upload/complete`, {}),
      200,
    );
    expect(video).toMatchObject({ id: session.video_id, filename: "clip.mp4", status: "queued" });
    // The spec's Video section: the complete response carries a signed thumbnail URL (served once
    // made).
    expect(video).toMatchObject({
      thumbnail_url: expect.stringMatching(/\/storage\/.+X-Amz-Signature=/),
    });
    const stored = await env.MEDIA_BUCKET.head(sourceKey(session.video_id));
    expect(stored?.size).toBe(bytes.byteLength);
    expect(stored?.httpMetadata?.contentType).toBe("video/mp4");

    const after = await expectJson(await api.get(`/videos/${session.video_id}/upload`), 200);
    expect(after).toMatchObject({
      state: "completed",
      verified_bytes: bytes.byteLength,
      uploaded_bytes: bytes.byteLength,
      targets: [],
    });
    expect(workspaceId).toBeTruthy();
  });

  it("derives the content type from the extension and refuses non-video names", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS"]);
    for (const [name, type] of [
      ["a.MOV", "video/quicktime"],
      ["b.webm", "video/webm"],
      ["c.mkv", "video/x-matroska"],
      ["d.m4v", "video/x-m4v"],
      ["e.avi", "video/x-msvideo"],
      ["f.3gp", "video/3gpp"],
      ["g.MPG", "video/mpeg"],
    ]) {
      expect((await startUpload(api, name ?? "", 10)).content_type).toBe(type);
    }
    for (const name of ["notes.txt", "noextension", "photo.png", ".mp4x"]) {
      const problem = await expectProblem(
        await api.post("/videos", { filename: name, file_size: 10 }),
        400,
        "invalid-request",
      );
      expect(problem.errors?.[0]?.path).toBe("filename");
    }
  });

  it("validates file_size: required, integer, 1 byte to 10 GiB", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS"]);
    for (const file_size of [undefined, 0, -1, 1.5, "10", 10 * 1024 ** 3 + 1]) {
      const problem = await expectProblem(
        await api.post("/videos", { filename: "a.mp4", file_size }),
        400,
        "invalid-request",
      );
      expect(problem.errors?.[0]?.path).toBe("file_size");
    }
    expect((await startUpload(api, "big.mp4", 10 * 1024 ** 3)).strategy).toBe("multipart");
    expect((await startUpload(api, "edge.mp4", 200 * 1024 * 1024)).strategy).toBe("direct");
  });

  it("answers 409 upload-incomplete before the PUT and upload-size-mismatch for wrong bytes, changing nothing", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS"]);
    const session = await startUpload(api, "clip.mp4", 100);
    const complete = () => api.post(`/videos/${session.video_id}/upload/complete`, {});
    await expectProblem(await complete(), 409, "upload-incomplete");
    await uploadTo(session.targets[0] ?? { url: "", headers: {} }, "too short");
    await expectProblem(await complete(), 409, "upload-size-mismatch");
    expect(
      await expectJson(await api.get(`/videos/${session.video_id}/upload`), 200),
    ).toMatchObject({ state: "open" });
    await uploadTo(session.targets[0] ?? { url: "", headers: {} }, "x".repeat(100));
    expect((await complete()).status).toBe(200);
  });

  it("refuses tampered, foreign and expired signatures with S3-style 403s", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS"]);
    const session = await startUpload(api, "clip.mp4", 5);
    const target = session.targets[0] ?? { url: "", headers: {} };
    const tampered = new URL(target.url);
    tampered.searchParams.set("X-Amz-Expires", "604800");
    const forgedPath = new URL(
      target.url.replace(session.video_id, "vid_00000000000000000000000000"),
    );
    const badSignature = new URL(target.url);
    badSignature.searchParams.set("X-Amz-Signature", "0".repeat(64));
    for (const url of [tampered, forgedPath, badSignature]) {
      const res = await putToTarget({ url: url.toString(), headers: {} }, "12345");
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toBe("application/xml");
      expect(await res.text()).toMatch(/<Code>SignatureDoesNotMatch<\/Code>/);
    }
    const unsigned = new URL(target.url);
    unsigned.search = "";
    const res = await putToTarget({ url: unsigned.toString(), headers: {} }, "12345");
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/AuthorizationQueryParametersError/);
  });

  it("lets a browser preflight the gateway and read the ETag", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS"]);
    const session = await startUpload(api, "clip.mp4", 5);
    const target = session.targets[0] ?? { url: "", headers: {} };
    const options = await workerFetch(target.url, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "PUT",
        "access-control-request-headers": "content-type",
      },
    });
    expect(options.status).toBe(204);
    expect(options.headers.get("access-control-allow-methods")).toContain("PUT");
    const put = await putToTarget(target, "12345");
    expect(put.headers.get("access-control-expose-headers")).toContain("ETag");
  });
});
