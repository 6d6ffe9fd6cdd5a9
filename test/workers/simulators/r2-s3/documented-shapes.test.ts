import { AwsClient } from "aws4fetch";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { departures } from "../../contracts/conforms";
import { type DocumentedReply, documented } from "../../contracts/r2-s3-fixtures";
import { bytesOf, CREDENTIALS, MiB, productionStorage, putTo, send } from "./world";

const xml = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  isArray: (n) => n === "Part",
});
const parsed = (text: string) => {
  const doc = xml.parse(text) as Record<string, unknown>;
  delete doc["?xml"];
  return doc;
};
const ctx = { origin: "unused" };
const later = () => new Date(Date.now() + 3600_000);
const BASE = "https://acct.r2.cloudflarestorage.com/media";
const client = new AwsClient({ ...CREDENTIALS, service: "s3", region: "auto" });
/** A request signed as the production adapter signs its calls, answered by the simulator. */
const signedFetch = async (url: string, init: RequestInit) => send(await client.sign(url, init));

/** The simulator's reply has the documented status and only documented elements, of their kinds. */
async function expectDocumented(res: Response, name: DocumentedReply, required: string[]) {
  const reference = documented(name);
  const body = await res.text();
  expect(res.status, body).toBe(reference.status);
  const root = Object.keys(parsed(reference.body))[0] ?? "";
  expect(
    departures(parsed(body), parsed(reference.body), {
      required: { $: [root], [`$.${root}`]: required },
    }),
  ).toEqual([]);
}

describe("R2 S3 simulator replies against the documented replies", () => {
  it("CreateMultipartUpload, ListParts, CompleteMultipartUpload and CopyObject", async () => {
    const storage = productionStorage();
    const key = "videos/vid_doc/source";
    const created = await signedFetch(`${BASE}/${key}?uploads`, { method: "POST" });
    await expectDocumented(created, "initiate-multipart-upload.xml", ["Bucket", "Key", "UploadId"]);
    const uploadId = await storage.createMultipart(key, "video/mp4");
    for (const [i, size] of [5 * MiB, 10].entries()) {
      const target = await storage.presignPart(key, uploadId, i + 1, later(), ctx);
      await putTo(target.url, bytesOf(size, i));
    }
    const page = `${BASE}/${key}?uploadId=${encodeURIComponent(uploadId)}&max-parts=1&part-number-marker=0`;
    const listed = await signedFetch(page, { method: "GET" });
    await expectDocumented(listed, "list-parts.xml", [
      "UploadId",
      "PartNumberMarker",
      "NextPartNumberMarker",
      "MaxParts",
      "IsTruncated",
      "Part",
    ]);
    const parts = (await storage.listParts(key, uploadId)) ?? [];
    const manifest = `<CompleteMultipartUpload>${parts.map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>"${p.etag}"</ETag></Part>`).join("")}</CompleteMultipartUpload>`;
    const done = await signedFetch(`${BASE}/${key}?uploadId=${encodeURIComponent(uploadId)}`, {
      method: "POST",
      body: manifest,
    });
    await expectDocumented(done, "complete-multipart-upload.xml", ["Bucket", "Key", "ETag"]);
    const copied = await signedFetch(`${BASE}/videos/vid_doc/copy`, {
      method: "PUT",
      headers: { "x-amz-copy-source": `/media/${key}` },
    });
    await expectDocumented(copied, "copy-object.xml", ["ETag", "LastModified"]);
  });

  it("NoSuchUpload, PreconditionFailed and NoSuchKey", async () => {
    const storage = productionStorage();
    const gone = await signedFetch(`${BASE}/videos/x/source?uploadId=nope`, { method: "GET" });
    await expectDocumented(gone, "no-such-upload.xml", ["Code", "Message"]);
    const target = await storage.presignPut("staging/doc/tok", "video/mp4", later(), ctx);
    await putTo(target.url, bytesOf(8), target.headers);
    const refused = await signedFetch(`${BASE}/videos/doc/source`, {
      method: "PUT",
      headers: {
        "x-amz-copy-source": "/media/staging/doc/tok",
        "x-amz-copy-source-if-match": '"0"',
      },
    });
    await expectDocumented(refused, "precondition-failed.xml", ["Code", "Message"]);
    const missing = await signedFetch(`${BASE}/videos/doc/none`, { method: "GET" });
    await expectDocumented(missing, "no-such-key.xml", ["Code", "Message"]);
  });
});
