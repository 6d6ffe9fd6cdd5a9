import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import {
  APP_ORIGIN,
  bytesOf,
  md5,
  productionStorage,
  putTo,
  send,
  simulatorOptions,
} from "./world";

const ctx = { origin: "unused" };
const later = () => new Date(Date.now() + 3600_000);
const errorCode = async (res: Response) =>
  (new XMLParser().parse(await res.text()) as { Error?: { Code?: string } }).Error?.Code;

describe("R2 S3 simulator: objects, ranges, copies and CORS", () => {
  it("stores a presigned PUT and serves it whole, by range and by HEAD", async () => {
    const storage = productionStorage();
    const bytes = bytesOf(1000, 3);
    const target = await storage.presignPut("staging/vid_1/tok", "video/mp4", later(), ctx);
    const put = await putTo(target.url, bytes, target.headers);
    expect(put.status).toBe(200);
    expect(put.headers.get("etag")).toBe(`"${await md5(bytes)}"`);
    const url = await storage.presignGet("staging/vid_1/tok", later(), ctx);
    const whole = await send(new Request(url));
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/mp4");
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes);
    const part = await send(new Request(url, { headers: { range: "bytes=10-19" } }));
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 10-19/1000");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(10, 20));
    const tail = await send(new Request(url, { headers: { range: "bytes=-5" } }));
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.slice(995));
    const beyond = await send(new Request(url, { headers: { range: "bytes=1000-" } }));
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe("bytes */1000");
    expect(await storage.headObject("staging/vid_1/tok")).toEqual({
      size: 1000,
      etag: await md5(bytes),
    });
  });

  it("copies only while the source keeps the ETag asked for; otherwise 412", async () => {
    const storage = productionStorage();
    const bytes = bytesOf(64, 9);
    const target = await storage.presignPut("staging/vid_2/tok", "video/webm", later(), ctx);
    await putTo(target.url, bytes, target.headers);
    const etag = await md5(bytes);
    expect(
      await storage.copyObject("staging/vid_2/tok", "videos/vid_2/source", "f".repeat(32)),
    ).toBeNull();
    expect(await storage.headObject("videos/vid_2/source")).toBeNull();
    expect(await storage.copyObject("staging/vid_2/tok", "videos/vid_2/source", etag)).toEqual({
      size: 64,
      etag,
    });
    expect(await storage.copyObject("staging/missing", "videos/vid_2/other", etag)).toBeNull();
    await storage.deleteObject("videos/vid_2/source");
    expect(await storage.headObject("videos/vid_2/source")).toBeNull();
  });

  it("refuses an expired URL, a PUT over 5 GiB − 5 MiB and the simulator's own ledger", async () => {
    let now = Date.now();
    const options = simulatorOptions(() => now);
    const storage = productionStorage(options);
    const url = await storage.presignGet("videos/vid_3/source", new Date(now + 60_000), ctx);
    now += 2 * 60_000;
    const expired = await send(new Request(url), options);
    expect(expired.status).toBe(400);
    expect(await errorCode(expired)).toBe("ExpiredRequest");
    const big = await storage.presignPut("videos/vid_3/big", "video/mp4", later(), ctx);
    const huge = String(5 * 1024 ** 3 - 5 * 1024 ** 2 + 1);
    const tooLarge = await putTo(big.url, bytesOf(1), { "content-length": huge });
    expect(await errorCode(tooLarge)).toBe("EntityTooLarge");
    const ledger = await storage.presignGet("__r2-s3-simulator/uploads/x", later(), ctx);
    expect(await errorCode(await send(new Request(ledger)))).toBe("AccessDenied");
  });

  it("answers preflights by the bucket's CORS rules and lets allowed pages read ETag", async () => {
    const storage = productionStorage();
    const target = await storage.presignPut("staging/vid_4/tok", "video/mp4", later(), ctx);
    const preflight = (origin: string, headers = "content-type") =>
      send(
        new Request(target.url, {
          method: "OPTIONS",
          headers: {
            origin,
            "access-control-request-method": "PUT",
            "access-control-request-headers": headers,
          },
        }),
      );
    const allowed = await preflight(APP_ORIGIN);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    expect(allowed.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(allowed.headers.get("access-control-expose-headers")).toBe("ETag");
    expect((await preflight("https://evil.example")).status).toBe(403);
    expect((await preflight(APP_ORIGIN, "content-type, x-custom")).status).toBe(403);
    const put = await putTo(target.url, bytesOf(5), { ...target.headers, origin: APP_ORIGIN });
    expect(put.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    expect(put.headers.get("access-control-expose-headers")).toBe("ETag");
    const foreign = await putTo(target.url, bytesOf(5), { origin: "https://evil.example" });
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
  });
});
