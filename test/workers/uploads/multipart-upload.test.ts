import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sourceKey } from "../../../src/lib/object-keys";
import { createPorts } from "../../../src/ports";
import { gatewayCredentials } from "../../../src/ports/storage/local-gateway/adapter";
import { presignUrl } from "../../../src/ports/storage/sigv4";
import type { UploadSessionDto } from "../../../src/routes/uploads/schemas";
import { normalizeEtag } from "../../../src/services/uploads";
import { client, createKey, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import { partBytes, putToTarget, startUpload, uploadTo } from "../../helpers/uploads";

const MiB = 1024 * 1024;
const CHUNK = 10 * MiB;
/** Just over the direct limit: 20 full parts and a 1-byte last part. */
const SIZE = 200 * MiB + 1;
const FULL = partBytes(CHUNK, 1);
const LAST = partBytes(1, 21);

function bodyFor(partNumber: number): Uint8Array {
  return partNumber === 21 ? LAST : FULL;
}

function targetFor(session: UploadSessionDto, partNumber: number) {
  return session.targets.find((t) => t.part_number === partNumber) ?? { url: "", headers: {} };
}

async function uploadParts(session: UploadSessionDto, numbers: number[], concurrency = 4) {
  const receipts: { part_number: number; etag: string }[] = [];
  for (let i = 0; i < numbers.length; i += concurrency) {
    const batch = numbers.slice(i, i + concurrency);
    const etags = await Promise.all(batch.map((n) => uploadTo(targetFor(session, n), bodyFor(n))));
    for (const [j, n] of batch.entries()) receipts.push({ part_number: n, etag: etags[j] ?? "" });
  }
  return receipts;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** Whether storage still holds the session's multipart upload (ListParts through the port). */
async function storageUploadOpen(session: UploadSessionDto): Promise<boolean> {
  const uploadId = new URL(session.targets[0]?.url ?? "").searchParams.get("uploadId") ?? "";
  const parts = await createPorts(env).storage.listParts(sourceKey(session.video_id), uploadId);
  return parts !== null;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("multipart uploads (over 200 MiB, 10 MiB parts)", { timeout: 120_000 }, () => {
  it("uploads parts in parallel, records receipts, completes and starts processing once", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const session = await startUpload(api, "long.mov", SIZE);
    expect(session).toMatchObject({
      strategy: "multipart",
      chunk_size: CHUNK,
      total_chunks: 21,
      content_type: "video/quicktime",
    });
    expect(session.targets.map((t) => t.part_number)).toEqual(range(1, 21));
    expect(
      session.targets.every(
        (t) => new URL(t.url).searchParams.get("partNumber") === String(t.part_number),
      ),
    ).toBe(true);

    const receipts = await uploadParts(session, range(1, 21));
    const recorded = await expectJson<UploadSessionDto>(
      await api.request("PUT", `/videos/${session.video_id}/upload/parts`, {
        body: { parts: receipts },
      }),
      200,
    );
    expect(recorded).toMatchObject({
      completed_parts: 21,
      uploaded_bytes: SIZE,
      reported_bytes: SIZE,
      verified_bytes: 0,
    });
    expect(recorded.received_parts).toEqual(range(1, 21));

    const send = vi.spyOn(env.PROCESSING_QUEUE, "send");
    const completions = await Promise.all(
      Array.from({ length: 5 }, () => api.post(`/videos/${session.video_id}/upload/complete`, {})),
    );
    const bodies = await Promise.all(completions.map((res) => res.json<Record<string, unknown>>()));
    expect(completions.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    // Every completion names the same video; processing may already have moved its status on
    // between the five reads (the queue consumer runs alongside), so only identity is compared.
    expect(
      new Set(
        bodies.map(({ id, filename, created_at }) => JSON.stringify({ id, filename, created_at })),
      ).size,
    ).toBe(1);
    const verified = await env.MEDIA_BUCKET.head(`videos/${session.video_id}/source`);
    expect(verified?.size).toBe(SIZE);
    // Part targets name an upload id that completion ended: a late part PUT changes nothing.
    const late = await putToTarget(targetFor(session, 1), "28 bytes that must not land");
    expect(late.status).toBe(404);
    expect(await late.text()).toContain("NoSuchUpload");
    expect((await env.MEDIA_BUCKET.head(`videos/${session.video_id}/source`))?.etag).toBe(
      verified?.etag,
    );
    // A later completion answers the same video and sends nothing more.
    expect((await api.post(`/videos/${session.video_id}/upload/complete`, {})).status).toBe(200);
    expect(
      send.mock.calls.filter(([message]) => JSON.stringify(message).includes(session.video_id)),
    ).toHaveLength(1);
    expect(
      await expectJson(await api.get(`/videos/${session.video_id}/upload`), 200),
    ).toMatchObject({
      state: "completed",
      verified_bytes: SIZE,
    });
  });

  it("resumes after a crash: a new client reads the progress and finishes", async () => {
    const { api, workspaceId } = await newTenant(["UPLOAD_VIDEOS"]);
    const session = await startUpload(api, "resume.mp4", SIZE);
    const firstHalf = await uploadParts(session, range(1, 10));
    await api.request("PUT", `/videos/${session.video_id}/upload/parts`, {
      body: { parts: firstHalf },
    });

    const other = client((await createKey(workspaceId, { permissions: ["UPLOAD_VIDEOS"] })).key);
    const progress = await expectJson<UploadSessionDto>(
      await other.get(`/videos/${session.video_id}/upload`),
      200,
    );
    expect(progress).toMatchObject({
      state: "open",
      completed_parts: 10,
      uploaded_bytes: 10 * CHUNK,
      targets: [],
    });
    expect(progress.target).toBeUndefined();
    const fresh = await expectJson<UploadSessionDto>(
      await other.post(`/videos/${session.video_id}/upload/targets`),
      200,
    );
    expect(fresh.targets.map((t) => t.part_number)).toEqual(range(11, 21));
    const rest = await uploadParts(fresh, range(11, 21));
    await other.request("PUT", `/videos/${session.video_id}/upload/parts`, {
      body: { parts: rest },
    });
    expect((await other.post(`/videos/${session.video_id}/upload/complete`, {})).status).toBe(200);
  });

  it("refuses to complete with a missing part or a receipt storage does not hold", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const session = await startUpload(api, "gap.mp4", SIZE);
    const record = (parts: unknown) =>
      api.request("PUT", `/videos/${session.video_id}/upload/parts`, { body: { parts } });
    const complete = () => api.post(`/videos/${session.video_id}/upload/complete`, {});
    const receipts = await uploadParts(
      session,
      range(1, 21).filter((n) => n !== 7),
    );
    await expectJson(await record(receipts), 200);
    const missing = await expectProblem(await complete(), 409, "upload-incomplete");
    expect(missing.detail).toContain("7");
    expect(await env.MEDIA_BUCKET.head(`videos/${session.video_id}/source`)).toBeNull();
    expect(
      await expectJson(await api.get(`/videos/${session.video_id}/upload`), 200),
    ).toMatchObject({ state: "open", completed_parts: 20 });

    // A receipt for a part storage does not hold is the client's word: recorded, then
    // refused at completion, which changes nothing.
    expect(
      await expectJson(await record([{ part_number: 7, etag: "made-up" }]), 200),
    ).toMatchObject({
      state: "open",
      completed_parts: 21,
      received_parts: range(1, 21),
      uploaded_bytes: SIZE - CHUNK,
      reported_bytes: SIZE,
      verified_bytes: 0,
    });
    const bogus = await expectProblem(await complete(), 409, "upload-incomplete");
    expect(bogus.detail).toContain("part 7");
    expect(bogus.detail).toContain("made-up");
    expect(await env.MEDIA_BUCKET.head(`videos/${session.video_id}/source`)).toBeNull();
    expect(
      await expectJson(await api.get(`/videos/${session.video_id}/upload`), 200),
    ).toMatchObject({ state: "open", completed_parts: 21, verified_bytes: 0 });
    expect(await expectJson(await api.get(`/videos/${session.video_id}`), 200)).toMatchObject({
      status: "queued",
    });

    // Uploading the part and recording the ETag its PUT answered fixes it.
    const [seven] = await uploadParts(session, [7]);
    expect(await expectJson(await record([seven]), 200)).toMatchObject({ uploaded_bytes: SIZE });
    expect(await expectJson(await complete(), 200)).toMatchObject({ id: session.video_id });
    expect(
      await expectJson(await api.get(`/videos/${session.video_id}/upload`), 200),
    ).toMatchObject({ state: "completed", verified_bytes: SIZE });
  });

  it("records new receipts as given and replaces one only when storage holds it", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS"]);
    const session = await startUpload(api, "receipts.mp4", SIZE);
    const [one] = await uploadParts(session, [1]);
    const record = (parts: unknown) =>
      api.request("PUT", `/videos/${session.video_id}/upload/parts`, { body: { parts } });
    const progress = async () =>
      expectJson<UploadSessionDto>(await api.get(`/videos/${session.video_id}/upload`), 200);

    // A part storage does not hold yet is recorded, with no confirmed bytes.
    expect(
      await expectJson(await record([{ part_number: 2, etag: "made-up" }]), 200),
    ).toMatchObject({
      completed_parts: 1,
      received_parts: [2],
      uploaded_bytes: 0,
      reported_bytes: CHUNK,
    });
    const recorded = await expectJson<UploadSessionDto>(await record([one]), 200);
    expect(recorded).toMatchObject({
      completed_parts: 2,
      received_parts: [1, 2],
      uploaded_bytes: CHUNK,
      reported_bytes: 2 * CHUNK,
      verified_bytes: 0,
    });
    // The same ETag again (quoted or not) is a no-op.
    expect(await expectJson(await record([one]), 200)).toEqual(recorded);
    expect(
      await expectJson(
        await record([{ part_number: 1, etag: normalizeEtag(one?.etag ?? "") }]),
        200,
      ),
    ).toEqual(recorded);

    // A different ETag storage does not hold never replaces a recorded receipt.
    const conflict = await expectProblem(
      await record([{ part_number: 1, etag: "other" }]),
      409,
      "conflict",
    );
    expect(conflict.detail).toContain("Part 1");
    expect(conflict.detail).toContain("other");
    await expectProblem(await record([{ part_number: 2, etag: "made-up-too" }]), 409, "conflict");
    // All or nothing: the new part 3 of a refused call is not recorded either.
    await expectProblem(
      await record([
        { part_number: 3, etag: "new" },
        { part_number: 1, etag: "other" },
      ]),
      409,
      "conflict",
    );
    expect(await progress()).toEqual(recorded);
    // The recorded receipts are still the first ones: sending them again changes nothing.
    expect(await expectJson(await record([one, { part_number: 2, etag: "made-up" }]), 200)).toEqual(
      recorded,
    );

    // Once the part is uploaded again, its new ETag replaces the receipt.
    const [again] = await uploadParts(session, [1]);
    expect(again?.etag).not.toBe(one?.etag);
    expect(await expectJson(await record([again]), 200)).toMatchObject({
      completed_parts: 2,
      uploaded_bytes: CHUNK,
    });
    // The new ETag is the receipt now: the old one no longer matches what storage holds.
    expect(await expectJson(await record([again]), 200)).toMatchObject({ uploaded_bytes: CHUNK });
    await expectProblem(await record([one]), 409, "conflict");

    const invalid = await expectProblem(
      await record([{ part_number: 22, etag: "x" }]),
      400,
      "invalid-request",
    );
    expect(invalid.errors?.[0]?.path).toBe("parts[0].part_number");
    const twice = await expectProblem(
      await record([
        { part_number: 4, etag: "a" },
        { part_number: 4, etag: "b" },
      ]),
      400,
      "invalid-request",
    );
    expect(twice.errors?.[0]?.path).toBe("parts[1].etag");
    const empty = await expectProblem(await record([]), 400, "invalid-request");
    expect(empty.errors?.[0]?.path).toBe("parts");
    expect(await progress()).toMatchObject({ completed_parts: 2, received_parts: [1, 2] });
  });

  it("records parts of the wrong size; completion answers 409 until they are fixed", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    /** 20 full parts and a 4096-byte last part. */
    const size = 200 * MiB + 4096;
    const session = await startUpload(api, "short.mp4", size);
    const record = (parts: unknown) =>
      api.request("PUT", `/videos/${session.video_id}/upload/parts`, { body: { parts } });
    const complete = () => api.post(`/videos/${session.video_id}/upload/complete`, {});
    const receipts = await uploadParts(
      session,
      range(1, 20).filter((n) => n !== 3),
    );
    const shortThree = await uploadTo(targetFor(session, 3), partBytes(1000, 3));
    const shortLast = await uploadTo(targetFor(session, 21), partBytes(1000, 21));
    expect(
      await expectJson(
        await record([
          ...receipts,
          { part_number: 3, etag: shortThree },
          { part_number: 21, etag: shortLast },
        ]),
        200,
      ),
    ).toMatchObject({
      state: "open",
      completed_parts: 21,
      uploaded_bytes: 19 * CHUNK + 2000,
      reported_bytes: size,
      verified_bytes: 0,
    });

    const three = await expectProblem(await complete(), 409, "upload-size-mismatch");
    expect(three.detail).toContain("Part 3 holds 1000 bytes; it must be 10485760 bytes");
    expect(await env.MEDIA_BUCKET.head(`videos/${session.video_id}/source`)).toBeNull();
    expect(
      await expectJson(await api.get(`/videos/${session.video_id}/upload`), 200),
    ).toMatchObject({ state: "open", completed_parts: 21, verified_bytes: 0 });

    const fixedThree = await uploadTo(targetFor(session, 3), FULL);
    expect(
      await expectJson(await record([{ part_number: 3, etag: fixedThree }]), 200),
    ).toMatchObject({ uploaded_bytes: 20 * CHUNK + 1000 });
    const last = await expectProblem(await complete(), 409, "upload-size-mismatch");
    expect(last.detail).toContain("Part 21 holds 1000 bytes; it must be 4096 bytes");
    expect(await env.MEDIA_BUCKET.head(`videos/${session.video_id}/source`)).toBeNull();
    expect(await expectJson(await api.get(`/videos/${session.video_id}`), 200)).toMatchObject({
      status: "queued",
    });

    // Fresh targets cover the part storage holds at the wrong size, and nothing else.
    const fresh = await expectJson<UploadSessionDto>(
      await api.post(`/videos/${session.video_id}/upload/targets`),
      200,
    );
    expect(fresh.targets.map((target) => target.part_number)).toEqual([21]);
    const fixedLast = await uploadTo(targetFor(fresh, 21), partBytes(4096, 21));
    expect(fixedLast).not.toBe(shortLast);
    expect(
      await expectJson(await record([{ part_number: 21, etag: fixedLast }]), 200),
    ).toMatchObject({ completed_parts: 21, uploaded_bytes: size, reported_bytes: size });
    expect(await expectJson(await complete(), 200)).toMatchObject({ id: session.video_id });
    expect((await env.MEDIA_BUCKET.head(`videos/${session.video_id}/source`))?.size).toBe(size);
    expect(
      await expectJson(await api.get(`/videos/${session.video_id}/upload`), 200),
    ).toMatchObject({ state: "completed", uploaded_bytes: size, verified_bytes: size });
  });

  it("aborts: storage session gone, video failed, every later change 409", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const session = await startUpload(api, "abort.mp4", SIZE);
    const receipts = await uploadParts(session, [1, 2]);
    const aborted = await expectJson(
      await api.request("DELETE", `/videos/${session.video_id}/upload`),
      200,
    );
    expect(aborted).toMatchObject({ state: "aborted" });
    expect(await storageUploadOpen(session)).toBe(false);
    const late = await putToTarget(session.targets[2] ?? { url: "", headers: {} }, FULL);
    expect(late.status).toBe(404);
    expect(await late.text()).toContain("NoSuchUpload");
    await expectProblem(
      await api.request("PUT", `/videos/${session.video_id}/upload/parts`, {
        body: { parts: receipts },
      }),
      409,
      "conflict",
    );
    await expectProblem(
      await api.post(`/videos/${session.video_id}/upload/targets`),
      409,
      "conflict",
    );
    await expectProblem(
      await api.post(`/videos/${session.video_id}/upload/complete`, {}),
      409,
      "conflict",
    );
    await expectProblem(
      await api.request("DELETE", `/videos/${session.video_id}/upload`),
      409,
      "conflict",
    );
    expect(await expectJson(await api.get(`/videos/${session.video_id}`), 200)).toMatchObject({
      status: "failed",
      error: { code: "upload-aborted" },
    });
  });

  it("expires after 24 hours through the alarm: 410, storage aborted, video failed", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const session = await startUpload(api, "late.mp4", SIZE);
    const stub = env.UPLOAD_SESSIONS.getByName(session.video_id);
    expect(await storageUploadOpen(session)).toBe(true);
    // The object runs in this isolate, so it reads the same clock.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(session.expires_at) + 1);
    await expectProblem(
      await api.post(`/videos/${session.video_id}/upload/complete`, {}),
      410,
      "upload-expired",
    );
    await expectProblem(
      await api.post(`/videos/${session.video_id}/upload/targets`),
      410,
      "upload-expired",
    );
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(
      await expectJson(await api.get(`/videos/${session.video_id}/upload`), 200),
    ).toMatchObject({ state: "expired" });
    expect(await expectJson(await api.get(`/videos/${session.video_id}`), 200)).toMatchObject({
      status: "failed",
      error: { code: "upload-expired" },
    });
    expect(await storageUploadOpen(session)).toBe(false);
  });

  it("refuses an expired target URL", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS"]);
    const session = await startUpload(api, "old.mp4", 5);
    const url = new URL(session.targets[0]?.url ?? "");
    for (const param of [...url.searchParams.keys()].filter((k) => k.startsWith("X-Amz-")))
      url.searchParams.delete(param);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    const expired = await presignUrl(
      await gatewayCredentials(env.SIGNING_SECRET ?? ""),
      "PUT",
      url,
      new Date(twoHoursAgo.getTime() + 3600_000),
      twoHoursAgo,
    );
    const res = await putToTarget({ url: expired, headers: {} }, "12345");
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/<Code>AccessDenied<\/Code><Message>Request has expired/);
  });

  it("keeps sessions inside their workspace", async () => {
    const mine = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const theirs = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const session = await startUpload(mine.api, "private.mp4", 5);
    for (const res of [
      await theirs.api.get(`/videos/${session.video_id}/upload`),
      await theirs.api.post(`/videos/${session.video_id}/upload/targets`),
      await theirs.api.post(`/videos/${session.video_id}/upload/complete`, {}),
      await theirs.api.request("PUT", `/videos/${session.video_id}/upload/parts`, {
        body: { parts: [{ part_number: 1, etag: "x" }] },
      }),
      await theirs.api.request("DELETE", `/videos/${session.video_id}/upload`),
      await theirs.api.get(`/videos/${session.video_id}`),
    ]) {
      await expectProblem(res, 404, "resource-not-found");
    }
    expect(
      await expectJson(await mine.api.get(`/videos/${session.video_id}/upload`), 200),
    ).toMatchObject({ state: "open" });
  });
});
