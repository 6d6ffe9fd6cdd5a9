import { describe, expect, it } from "vitest";
import { R2S3Storage } from "../../../src/ports/storage/r2-s3";
import { verifyPresigned } from "../../../src/ports/storage/sigv4";

const credentials = { accessKeyId: "AKIDTEST", secretAccessKey: "s3cr3t-test-key" };
const location = { accountId: "acct123", bucket: "media" };
const BASE = "https://acct123.r2.cloudflarestorage.com/media/videos/vid_1/source";

interface Recorded {
  method: string;
  url: URL;
  authorization: string | null;
  headers: Headers;
  body: string;
}

/** A stand-in for R2's S3 endpoint: records every signed request, answers canned XML. */
function recordingS3(answer: (call: Recorded) => Response) {
  const calls: Recorded[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const call = {
      method: request.method,
      url: new URL(request.url),
      authorization: request.headers.get("authorization"),
      headers: request.headers,
      body: await request.text(),
    };
    calls.push(call);
    return answer(call);
  }) as typeof fetch;
  return { calls, storage: new R2S3Storage(location, credentials, fetcher) };
}

const xml = (body: string, status = 200) =>
  new Response(body, { status, headers: { "content-type": "application/xml" } });

describe("R2S3Storage (production adapter) against a recording S3 endpoint", () => {
  it("creates a multipart upload with a SigV4-signed POST ?uploads", async () => {
    const { calls, storage } = recordingS3(() =>
      xml(
        "<InitiateMultipartUploadResult><Bucket>media</Bucket><Key>videos/vid_1/source</Key><UploadId>up-42</UploadId></InitiateMultipartUploadResult>",
      ),
    );
    expect(await storage.createMultipart("videos/vid_1/source", "video/mp4")).toBe("up-42");
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe("POST");
    expect(calls[0]?.url.toString()).toBe(`${BASE}?uploads`);
    expect(calls[0]?.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/auto\/s3\/aws4_request, SignedHeaders=.*host.*, Signature=[0-9a-f]{64}$/,
    );
  });

  it("lists parts across pages and strips ETag quotes", async () => {
    const { calls, storage } = recordingS3((call) => {
      const marker = call.url.searchParams.get("part-number-marker");
      return marker === "0"
        ? xml(
            '<ListPartsResult><IsTruncated>true</IsTruncated><NextPartNumberMarker>1</NextPartNumberMarker><Part><PartNumber>1</PartNumber><ETag>"aaa"</ETag><Size>10485760</Size></Part></ListPartsResult>',
          )
        : xml(
            '<ListPartsResult><IsTruncated>false</IsTruncated><Part><PartNumber>2</PartNumber><ETag>"bbb"</ETag><Size>5</Size></Part></ListPartsResult>',
          );
    });
    expect(await storage.listParts("videos/vid_1/source", "up-42")).toEqual([
      { partNumber: 1, etag: "aaa", size: 10485760 },
      { partNumber: 2, etag: "bbb", size: 5 },
    ]);
    expect(
      calls.map((c) => [
        c.method,
        c.url.searchParams.get("uploadId"),
        c.url.searchParams.get("part-number-marker"),
      ]),
    ).toEqual([
      ["GET", "up-42", "0"],
      ["GET", "up-42", "1"],
    ]);
  });

  it("reports a vanished upload as null", async () => {
    const { storage } = recordingS3(() => xml("<Error><Code>NoSuchUpload</Code></Error>", 404));
    expect(await storage.listParts("videos/vid_1/source", "gone")).toBeNull();
  });

  it("completes with the part manifest, then reads the object's size", async () => {
    const { calls, storage } = recordingS3((call) =>
      call.method === "HEAD"
        ? new Response(null, { status: 200, headers: { "content-length": "10485765" } })
        : xml('<CompleteMultipartUploadResult><ETag>"x-2"</ETag></CompleteMultipartUploadResult>'),
    );
    const size = await storage.completeMultipart("videos/vid_1/source", "up-42", [
      { partNumber: 1, etag: "aaa", size: 10485760 },
      { partNumber: 2, etag: "bbb", size: 5 },
    ]);
    expect(size).toBe(10485765);
    expect(calls[0]?.method).toBe("POST");
    expect(calls[0]?.body).toBe(
      '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"aaa"</ETag></Part><Part><PartNumber>2</PartNumber><ETag>"bbb"</ETag></Part></CompleteMultipartUpload>',
    );
    expect(calls[1]?.method).toBe("HEAD");
  });

  it("treats an error document in a 200 completion as a failure", async () => {
    const { storage } = recordingS3(() => xml("<Error><Code>InternalError</Code></Error>"));
    await expect(storage.completeMultipart("videos/vid_1/source", "up-42", [])).rejects.toThrow(
      /CompleteMultipartUpload/,
    );
  });

  it("aborts with DELETE ?uploadId", async () => {
    const { calls, storage } = recordingS3(() => new Response(null, { status: 204 }));
    await storage.abortMultipart("videos/vid_1/source", "up-42");
    expect(calls[0]?.method).toBe("DELETE");
    expect(calls[0]?.url.searchParams.get("uploadId")).toBe("up-42");
  });

  it("heads and deletes objects; a missing object reads as null", async () => {
    const { calls, storage } = recordingS3((call) =>
      call.method === "DELETE"
        ? new Response(null, { status: 204 })
        : call.url.pathname.endsWith("/missing")
          ? new Response(null, { status: 404 })
          : new Response(null, { headers: { "content-length": "41", etag: '"abc"' } }),
    );
    expect(await storage.headObject("videos/vid_1/source")).toEqual({ size: 41, etag: "abc" });
    expect(await storage.headObject("videos/vid_1/missing")).toBeNull();
    await storage.deleteObject("staging/vid_1/t 1");
    expect(calls.map((c) => [c.method, c.url.pathname])).toEqual([
      ["HEAD", "/media/videos/vid_1/source"],
      ["HEAD", "/media/videos/vid_1/missing"],
      ["DELETE", "/media/staging/vid_1/t%201"],
    ]);
  });

  it("copies inside R2 (CopyObject) only while the source has the verified ETag", async () => {
    let precondition = 200;
    const { calls, storage } = recordingS3((call) => {
      if (call.method === "HEAD")
        return new Response(null, { headers: { "content-length": "41", etag: '"abc"' } });
      return precondition === 200
        ? xml('<CopyObjectResult><ETag>"abc"</ETag></CopyObjectResult>')
        : xml("<Error><Code>PreconditionFailed</Code></Error>", precondition);
    });
    expect(await storage.copyObject("staging/vid_1/tok", "videos/vid_1/source", "abc")).toEqual({
      size: 41,
      etag: "abc",
    });
    expect(calls[0]?.method).toBe("PUT");
    expect(calls[0]?.url.toString()).toBe(BASE);
    expect(calls[0]?.headers.get("x-amz-copy-source")).toBe("/media/staging/vid_1/tok");
    expect(calls[0]?.headers.get("x-amz-copy-source-if-match")).toBe('"abc"');
    expect(calls[0]?.authorization).toMatch(/SignedHeaders=.*x-amz-copy-source/);
    precondition = 412;
    expect(await storage.copyObject("staging/vid_1/tok", "videos/vid_1/source", "old")).toBeNull();
  });

  it("treats an error document in a 200 copy as a failure", async () => {
    const { storage } = recordingS3(() => xml("<Error><Code>InternalError</Code></Error>"));
    await expect(storage.copyObject("a", "b", "abc")).rejects.toThrow(/CopyObject/);
  });

  it("presigns part, object and read URLs that S3's own check accepts, for one hour", async () => {
    const { calls, storage } = recordingS3(() => new Response(null));
    const expiresAt = new Date(Date.now() + 3600_000);
    const part = await storage.presignPart("videos/vid_1/source", "up-42", 3, expiresAt, {
      origin: "ignored",
    });
    expect(part).toMatchObject({
      method: "put",
      part_number: 3,
      headers: {},
      expires_at: expiresAt.toISOString(),
    });
    const url = new URL(part.url);
    expect(`${url.origin}${url.pathname}`).toBe(BASE);
    expect(url.searchParams.get("partNumber")).toBe("3");
    expect(url.searchParams.get("uploadId")).toBe("up-42");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("3600");
    expect(await verifyPresigned(credentials, "PUT", url)).toBeNull();
    const direct = await storage.presignPut("videos/vid_1/source", "video/mp4", expiresAt, {
      origin: "ignored",
    });
    expect(direct.headers).toEqual({ "content-type": "video/mp4" });
    expect(await verifyPresigned(credentials, "PUT", new URL(direct.url))).toBeNull();
    const read = new URL(
      await storage.presignGet("videos/vid_1/source", expiresAt, { origin: "ignored" }),
    );
    expect(await verifyPresigned(credentials, "GET", read)).toBeNull();
    expect(await verifyPresigned(credentials, "PUT", read)).toMatchObject({
      code: "SignatureDoesNotMatch",
    });
    expect(calls).toHaveLength(0);
  });
});
