import { describe, expect, it } from "vitest";
import { R2S3Storage } from "../../../src/ports/storage/r2-s3";
import { type DocumentedReply, documented, documentedResponse } from "./r2-s3-fixtures";

const KEY = "videos/vid_1/source";

/** R2S3Storage over an endpoint that answers each request with a documented reply. */
function against(answer: (request: Request) => Response) {
  const requests: Request[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request.clone());
    return answer(request);
  }) as typeof fetch;
  const storage = new R2S3Storage(
    { accountId: "acct", bucket: "media" },
    { accessKeyId: "AKIDTEST", secretAccessKey: "secret" },
    fetcher,
  );
  return { storage, requests };
}

const head = (size: number) =>
  new Response(null, { headers: { "content-length": String(size), etag: '"abc"' } });
const reply = (name: DocumentedReply, padding?: string) => () => documentedResponse(name, padding);

describe("R2S3Storage against R2's documented S3 replies", () => {
  it("reads the upload id of CreateMultipartUpload", async () => {
    const { storage } = against(reply("initiate-multipart-upload.xml"));
    expect(await storage.createMultipart(KEY, "video/mp4")).toBe(
      "VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA",
    );
  });

  it("follows ListParts pages by NextPartNumberMarker and unquotes ETags", async () => {
    const { storage, requests } = against((request) =>
      new URL(request.url).searchParams.get("part-number-marker") === "3"
        ? documentedResponse("list-parts-last-page.xml")
        : documentedResponse("list-parts.xml"),
    );
    expect(await storage.listParts(KEY, "up-1")).toEqual([
      { partNumber: 2, etag: "7778aef83f66abc1fa1e8477f296d394", size: 10485760 },
      { partNumber: 3, etag: "aaaa18db4cc2f85cedef654fccc4a4x8", size: 10485760 },
      { partNumber: 4, etag: "b54357faf0632cce46e942fa68356b38", size: 524288 },
    ]);
    expect(requests.map((r) => new URL(r.url).searchParams.get("part-number-marker"))).toEqual([
      "0",
      "3",
    ]);
  });

  it("reads ETags written with character references, which XML allows for quotes", async () => {
    const { storage } = against((request) => {
      const { body } = documented("list-parts-last-page.xml");
      const encoded = body.replace(
        /"b54357faf0632cce46e942fa68356b38"/,
        "&#34;b54357faf0632cce46e942fa68356b38&#x22;",
      );
      return new URL(request.url).searchParams.get("part-number-marker") === "0"
        ? new Response(encoded, { headers: { "content-type": "application/xml" } })
        : documentedResponse("no-such-upload.xml");
    });
    expect(await storage.listParts(KEY, "up-1")).toEqual([
      { partNumber: 4, etag: "b54357faf0632cce46e942fa68356b38", size: 524288 },
    ]);
  });

  it("reads NoSuchUpload as a vanished upload, for ListParts and AbortMultipartUpload", async () => {
    const { storage } = against(reply("no-such-upload.xml"));
    expect(await storage.listParts(KEY, "gone")).toBeNull();
    await expect(storage.abortMultipart(KEY, "gone")).resolves.toBeUndefined();
  });

  it("completes on the documented result, then reads the size", async () => {
    const { storage } = against((request) =>
      request.method === "HEAD"
        ? head(20971520)
        : documentedResponse("complete-multipart-upload.xml"),
    );
    const parts = [{ partNumber: 1, etag: "7778aef83f66abc1fa1e8477f296d394", size: 20971520 }];
    expect(await storage.completeMultipart(KEY, "up-1", parts)).toBe(20971520);
  });

  it("fails on the documented error inside a 200 CompleteMultipartUpload, padded or not", async () => {
    for (const padding of ["", "\n \n "]) {
      const { storage, requests } = against((request) =>
        request.method === "HEAD"
          ? head(1)
          : documentedResponse("complete-multipart-upload-error-in-200.xml", padding),
      );
      await expect(storage.completeMultipart(KEY, "up-1", [])).rejects.toThrow(
        /CompleteMultipartUpload/,
      );
      expect(requests.map((r) => r.method)).toEqual(["POST"]);
    }
  });

  it("completes on a result preceded by the whitespace S3 sends while it works", async () => {
    const { storage } = against((request) =>
      request.method === "HEAD"
        ? head(7)
        : documentedResponse("complete-multipart-upload.xml", "\n \n "),
    );
    expect(await storage.completeMultipart(KEY, "up-1", [])).toBe(7);
  });

  it("copies on the documented CopyObjectResult and reads 412 PreconditionFailed as a lost race", async () => {
    const copied = against((request) =>
      request.method === "HEAD" ? head(41) : documentedResponse("copy-object.xml"),
    );
    expect(await copied.storage.copyObject("staging/a", KEY, "abc")).toEqual({
      size: 41,
      etag: "abc",
    });
    const refused = against(reply("precondition-failed.xml"));
    expect(await refused.storage.copyObject("staging/a", KEY, "stale")).toBeNull();
    const missing = against(reply("no-such-key.xml"));
    expect(await missing.storage.copyObject("staging/gone", KEY, "abc")).toBeNull();
  });

  it("fails a copy whose 200 carries the documented error document", async () => {
    const { storage } = against(reply("complete-multipart-upload-error-in-200.xml"));
    await expect(storage.copyObject("staging/a", KEY, "abc")).rejects.toThrow(/CopyObject/);
  });
});
