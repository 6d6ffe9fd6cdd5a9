import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { bytesOf, MiB, md5, productionStorage, putTo, send } from "./world";

const ctx = { origin: "unused" };
const later = () => new Date(Date.now() + 3600_000);
const errorCode = async (res: Response) =>
  (new XMLParser().parse(await res.text()) as { Error?: { Code?: string } }).Error?.Code;

async function uploadParts(key: string, sizes: number[]) {
  const storage = productionStorage();
  const uploadId = await storage.createMultipart(key, "video/mp4");
  const parts = sizes.map((size, i) => bytesOf(size, i));
  for (const [i, bytes] of parts.entries()) {
    const target = await storage.presignPart(key, uploadId, i + 1, later(), ctx);
    const res = await putTo(target.url, bytes);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("etag")).toBe(`"${await md5(bytes)}"`);
  }
  return { storage, uploadId, parts };
}

describe("R2 S3 simulator: multipart uploads through the production adapter", () => {
  it("lists MD5 part ETags, completes, and reports R2's multipart ETag and size", async () => {
    const key = "videos/vid_mp/source";
    const { storage, uploadId, parts } = await uploadParts(key, [5 * MiB, 5 * MiB, 1234]);
    const listed = await storage.listParts(key, uploadId);
    expect(listed).toEqual(
      await Promise.all(
        parts.map(async (p, i) => ({ partNumber: i + 1, etag: await md5(p), size: p.byteLength })),
      ),
    );
    expect(await storage.completeMultipart(key, uploadId, listed ?? [])).toBe(10 * MiB + 1234);
    const md5s = (listed ?? []).map((p) => p.etag).join("");
    const joined = Uint8Array.from(md5s.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
    expect(await storage.headObject(key)).toEqual({
      size: 10 * MiB + 1234,
      etag: `${await md5(joined)}-3`,
    });
    expect(await storage.listParts(key, uploadId)).toBeNull();
  });

  it("enforces R2's part rules when completing", async () => {
    const small = await uploadParts("videos/vid_small/source", [1 * MiB, 1234]);
    const listedSmall =
      (await small.storage.listParts("videos/vid_small/source", small.uploadId)) ?? [];
    await expect(
      small.storage.completeMultipart("videos/vid_small/source", small.uploadId, listedSmall),
    ).rejects.toThrow(/EntityTooSmall/);

    const uneven = await uploadParts("videos/vid_uneven/source", [6 * MiB, 5 * MiB, 10]);
    const listed =
      (await uneven.storage.listParts("videos/vid_uneven/source", uneven.uploadId)) ?? [];
    await expect(
      uneven.storage.completeMultipart("videos/vid_uneven/source", uneven.uploadId, listed),
    ).rejects.toThrow(/InvalidPart/);
    const wrongTag = listed.map((p, i) => (i === 0 ? { ...p, etag: "0".repeat(32) } : p));
    await expect(
      uneven.storage.completeMultipart("videos/vid_uneven/source", uneven.uploadId, wrongTag),
    ).rejects.toThrow(/InvalidPart/);
  });

  it("refuses part numbers past 10,000 and parts of unknown or aborted uploads", async () => {
    const key = "videos/vid_abort/source";
    const storage = productionStorage();
    const uploadId = await storage.createMultipart(key, "video/mp4");
    const tooFar = await storage.presignPart(key, uploadId, 10_001, later(), ctx);
    const res = await putTo(tooFar.url, bytesOf(10));
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe("InvalidArgument");
    const otherKey = await storage.presignPart("videos/other/source", uploadId, 1, later(), ctx);
    expect(await errorCode(await putTo(otherKey.url, bytesOf(10)))).toBe("NoSuchUpload");
    await storage.abortMultipart(key, uploadId);
    const late = await storage.presignPart(key, uploadId, 1, later(), ctx);
    const refused = await putTo(late.url, bytesOf(10));
    expect(refused.status).toBe(404);
    expect(await errorCode(refused)).toBe("NoSuchUpload");
    expect(await storage.listParts(key, uploadId)).toBeNull();
  });

  it("refuses a part body shorter than its Content-Length, and one without it", async () => {
    const key = "videos/vid_short/source";
    const storage = productionStorage();
    const uploadId = await storage.createMultipart(key, "video/mp4");
    const target = await storage.presignPart(key, uploadId, 1, later(), ctx);
    const short = await putTo(target.url, bytesOf(100), { "content-length": "200" });
    expect(await errorCode(short)).toBe("IncompleteBody");
    const none = await send(new Request(target.url, { method: "PUT", body: bytesOf(10) }));
    expect(none.status).toBe(411);
    expect(await storage.listParts(key, uploadId)).toEqual([]);
  });
});
