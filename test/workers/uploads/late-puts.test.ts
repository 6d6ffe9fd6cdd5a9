import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sourceKey } from "../../../src/lib/object-keys";
import { createPorts } from "../../../src/ports";
import type { UploadSessionDto } from "../../../src/routes/uploads/schemas";
import { TARGET_TTL_MS } from "../../../src/services/uploads";
import { expectJson, newTenant, ORIGIN, workerFetch } from "../../helpers/harness";
import { putToTarget, startUpload, uploadTo } from "../../helpers/uploads";

const VERIFIED = "not really a video, but 41 bytes long!!!";
const LATE = "28 bytes that must not land";

const storage = () => createPorts(env).storage;

/** What a signed URL of the video's source serves: the URL clips and search results use. */
async function served(videoId: string): Promise<string | null> {
  const url = await storage().presignGet(sourceKey(videoId), new Date(Date.now() + 60_000), {
    origin: ORIGIN,
  });
  const res = await workerFetch(url);
  return res.status === 404 ? null : res.text();
}

/** The object a direct target PUTs to, named by its presigned URL. */
function targetKey(session: UploadSessionDto): string {
  const path = new URL(session.targets[0]?.url ?? "").pathname;
  return decodeURIComponent(path.slice("/storage/".length));
}

/** Runs the session's alarm a target lifetime from now, when every target it minted expired. */
async function sweepAfterTargetsExpire(session: UploadSessionDto): Promise<void> {
  const later = Date.now() + TARGET_TTL_MS + 1;
  expect(later).toBeGreaterThan(Date.parse(session.targets[0]?.expires_at ?? ""));
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(later);
  expect(await runDurableObjectAlarm(env.UPLOAD_SESSIONS.getByName(session.video_id))).toBe(true);
  vi.useRealTimers();
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a direct target after completion or abort cannot change what is served", () => {
  it("after completion: a late PUT lands on the staging key, never on the verified source", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const session = await startUpload(api, "clip.mp4", VERIFIED.length);
    const target = session.targets[0] ?? { url: "", headers: {} };
    expect(targetKey(session)).not.toBe(sourceKey(session.video_id));
    await uploadTo(target, VERIFIED);
    await expectJson(await api.post(`/videos/${session.video_id}/upload/complete`, {}), 200);
    expect(await served(session.video_id)).toBe(VERIFIED);
    // Completion moved the bytes: nothing is left at the target's key.
    expect(await storage().headObject(targetKey(session))).toBeNull();

    // Presigned URLs cannot be revoked: storage takes the PUT, but not where it is served.
    expect((await putToTarget(target, LATE)).status).toBe(200);
    expect(await served(session.video_id)).toBe(VERIFIED);
    expect(
      await expectJson(await api.get(`/videos/${session.video_id}/upload`), 200),
    ).toMatchObject({ state: "completed", verified_bytes: VERIFIED.length });

    // Once every target has expired, the alarm deletes what the late PUT left.
    expect(await storage().headObject(targetKey(session))).toMatchObject({ size: LATE.length });
    await sweepAfterTargetsExpire(session);
    expect(await storage().headObject(targetKey(session))).toBeNull();
    expect(await served(session.video_id)).toBe(VERIFIED);
  });

  it("after abort: nothing is served, and the orphan a late PUT leaves is deleted", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const session = await startUpload(api, "gone.mp4", VERIFIED.length);
    const target = session.targets[0] ?? { url: "", headers: {} };
    await uploadTo(target, VERIFIED);
    await expectJson(await api.request("DELETE", `/videos/${session.video_id}/upload`), 200);
    expect(await storage().headObject(targetKey(session))).toBeNull();

    expect((await putToTarget(target, LATE)).status).toBe(200);
    expect(await served(session.video_id)).toBeNull();
    expect(await expectJson(await api.get(`/videos/${session.video_id}`), 200)).toMatchObject({
      status: "failed",
      error: { code: "upload-aborted" },
    });
    await sweepAfterTargetsExpire(session);
    expect(await storage().headObject(targetKey(session))).toBeNull();
    expect(await served(session.video_id)).toBeNull();
  });

  it("a PUT racing completion is never copied: completion pins the bytes it verified", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS"]);
    const session = await startUpload(api, "race.mp4", VERIFIED.length);
    await uploadTo(session.targets[0] ?? { url: "", headers: {} }, VERIFIED);
    const key = targetKey(session);
    const held = await storage().headObject(key);
    await env.MEDIA_BUCKET.put(key, VERIFIED.toUpperCase());
    expect(
      await storage().copyObject(key, sourceKey(session.video_id), held?.etag ?? ""),
    ).toBeNull();
    expect(await served(session.video_id)).toBeNull();
  });
});
