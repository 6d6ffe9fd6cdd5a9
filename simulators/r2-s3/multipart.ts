import { XMLParser } from "fast-xml-parser";
import type { PayloadHash } from "./auth";
import { declaredLength, readSmallBody, type S3Context } from "./context";
import {
  closeUpload,
  type LedgerPart,
  openUpload,
  partsOf,
  recordEtag,
  recordPart,
  uploadOf,
} from "./ledger";
import { R2_LIMITS } from "./limits";
import { measure, multipartEtag } from "./stream";
import { element, resultXml, S3Error, xmlResponse } from "./xml";

const xml = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  isArray: (n) => n === "Part",
});
const NO_SUCH_UPLOAD =
  "The specified multipart upload does not exist. The upload ID might not be valid, or the multipart upload might have been aborted or completed.";
const unquote = (etag: string) => etag.trim().replace(/^"|"$/g, "");

async function openUploadOf(ctx: S3Context, uploadId: string): Promise<void> {
  if ((await uploadOf(ctx.bucket, uploadId)) !== ctx.key)
    throw new S3Error("NoSuchUpload", NO_SUCH_UPLOAD);
}

/** CreateMultipartUpload: `POST /{bucket}/{key}?uploads`. */
export async function createMultipartUpload(ctx: S3Context): Promise<Response> {
  const contentType = ctx.request.headers.get("content-type") ?? "application/octet-stream";
  const upload = await ctx.bucket.createMultipartUpload(ctx.key, { httpMetadata: { contentType } });
  await openUpload(ctx.bucket, upload.uploadId, ctx.key);
  const body =
    element("Bucket", ctx.bucketName) +
    element("Key", ctx.key) +
    element("UploadId", upload.uploadId);
  return xmlResponse(200, resultXml("InitiateMultipartUploadResult", body));
}

/** UploadPart: `PUT /{bucket}/{key}?partNumber=N&uploadId=ID`, streamed and hashed. */
export async function uploadPart(ctx: S3Context, payload: PayloadHash): Promise<Response> {
  const partNumber = Number(ctx.url.searchParams.get("partNumber"));
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > R2_LIMITS.maxParts) {
    throw new S3Error(
      "InvalidArgument",
      "Part number must be an integer between 1 and 10000, inclusive.",
    );
  }
  const uploadId = ctx.url.searchParams.get("uploadId") ?? "";
  await openUploadOf(ctx, uploadId);
  const size = declaredLength(ctx.request);
  if (size > R2_LIMITS.maxPartBytes) {
    throw new S3Error(
      "EntityTooLarge",
      "Your proposed upload exceeds the maximum allowed object size.",
    );
  }
  const measured = measure(
    ctx.request.body ?? new ReadableStream(),
    size,
    payload.kind === "sha256",
  );
  const stored = ctx.bucket
    .resumeMultipartUpload(ctx.key, uploadId)
    .uploadPart(partNumber, measured.stream);
  const { md5, sha256 } = await measured.finish(stored);
  if (payload.kind === "sha256" && sha256 !== payload.hex) {
    throw new S3Error(
      "XAmzContentSHA256Mismatch",
      "The provided 'x-amz-content-sha256' header does not match what was computed.",
    );
  }
  const part = await stored;
  await recordPart(ctx.bucket, uploadId, {
    partNumber,
    size,
    md5,
    bindingEtag: part.etag,
    lastModified: new Date(ctx.now).toISOString(),
  });
  return new Response(null, { status: 200, headers: { ETag: `"${md5}"` } });
}

/** ListParts: `GET /{bucket}/{key}?uploadId=ID[&max-parts=N&part-number-marker=M]`. */
export async function listParts(ctx: S3Context): Promise<Response> {
  const uploadId = ctx.url.searchParams.get("uploadId") ?? "";
  await openUploadOf(ctx, uploadId);
  const maxParam = ctx.url.searchParams.get("max-parts");
  const markerParam = ctx.url.searchParams.get("part-number-marker");
  const max = maxParam === null ? R2_LIMITS.maxListParts : Number(maxParam);
  const marker = markerParam === null || markerParam === "" ? 0 : Number(markerParam);
  if (!Number.isInteger(max) || max < 0 || !Number.isInteger(marker) || marker < 0) {
    throw new S3Error(
      "InvalidArgument",
      "max-parts and part-number-marker must be non-negative integers.",
    );
  }
  const after = (await partsOf(ctx.bucket, uploadId)).filter((p) => p.partNumber > marker);
  const page = after.slice(0, Math.min(max, R2_LIMITS.maxListParts));
  const truncated = after.length > page.length;
  const next = page.at(-1)?.partNumber ?? marker;
  const body =
    element("Bucket", ctx.bucketName) +
    element("Key", ctx.key) +
    element("UploadId", uploadId) +
    element("StorageClass", "STANDARD") +
    element("PartNumberMarker", marker) +
    element("NextPartNumberMarker", next) +
    element("MaxParts", max) +
    element("IsTruncated", truncated) +
    page
      .map(
        (p) =>
          `<Part>${element("PartNumber", p.partNumber)}${element("LastModified", p.lastModified)}${element("ETag", `"${p.md5}"`)}${element("Size", p.size)}</Part>`,
      )
      .join("");
  return xmlResponse(200, resultXml("ListPartsResult", body));
}

/** The parts a CompleteMultipartUpload body names, in the order given. */
function requestedParts(text: string): { partNumber: number; etag: string }[] {
  let doc: { CompleteMultipartUpload?: { Part?: { PartNumber?: unknown; ETag?: unknown }[] } };
  try {
    doc = xml.parse(text);
  } catch {
    throw new S3Error(
      "MalformedXML",
      "The XML you provided was not well-formed or did not validate.",
    );
  }
  const parts = doc.CompleteMultipartUpload?.Part ?? [];
  if (parts.length === 0) {
    throw new S3Error(
      "MalformedXML",
      "The XML you provided was not well-formed or did not validate.",
    );
  }
  return parts.map((p) => ({
    partNumber: Number(p.PartNumber),
    etag: unquote(String(p.ETag ?? "")),
  }));
}

/** R2's rules for the parts of one object, checked before the binding completes it. */
function checkParts(
  requested: { partNumber: number; etag: string }[],
  stored: LedgerPart[],
): LedgerPart[] {
  const byNumber = new Map(stored.map((p) => [p.partNumber, p]));
  const chosen = requested.map((want, i) => {
    if (i > 0 && want.partNumber <= (requested[i - 1]?.partNumber ?? 0)) {
      throw new S3Error(
        "InvalidPartOrder",
        "The list of parts was not in ascending order. The parts list must be specified in order by part number.",
      );
    }
    const part = byNumber.get(want.partNumber);
    if (!part || part.md5 !== want.etag) {
      throw new S3Error(
        "InvalidPart",
        "One or more of the specified parts could not be found. The part might not have been uploaded, or the specified entity tag might not have matched the part's entity tag.",
      );
    }
    return part;
  });
  const head = chosen.slice(0, -1);
  const last = chosen.at(-1);
  if (head.some((p) => p.size < R2_LIMITS.minPartBytes)) {
    throw new S3Error(
      "EntityTooSmall",
      "Your proposed upload is smaller than the minimum allowed object size.",
    );
  }
  const size = head[0]?.size;
  if (size !== undefined && (head.some((p) => p.size !== size) || (last?.size ?? 0) > size)) {
    throw new S3Error("InvalidPart", "All non-trailing parts must have the same length.");
  }
  return chosen;
}

/** CompleteMultipartUpload: `POST /{bucket}/{key}?uploadId=ID` with the part list. */
export async function completeMultipartUpload(
  ctx: S3Context,
  payload: PayloadHash,
): Promise<Response> {
  const uploadId = ctx.url.searchParams.get("uploadId") ?? "";
  await openUploadOf(ctx, uploadId);
  const requested = requestedParts(await readSmallBody(ctx.request, payload));
  const chosen = checkParts(requested, await partsOf(ctx.bucket, uploadId));
  const object = await ctx.bucket
    .resumeMultipartUpload(ctx.key, uploadId)
    .complete(chosen.map((p) => ({ partNumber: p.partNumber, etag: p.bindingEtag })));
  const etag = await multipartEtag(chosen.map((p) => p.md5));
  await recordEtag(ctx.bucket, ctx.key, object.etag, etag);
  await closeUpload(ctx.bucket, uploadId);
  const location = `${ctx.url.origin}${ctx.url.pathname}`;
  const body =
    element("Location", location) +
    element("Bucket", ctx.bucketName) +
    element("Key", ctx.key) +
    element("ETag", `"${etag}"`);
  return xmlResponse(200, resultXml("CompleteMultipartUploadResult", body));
}

/** AbortMultipartUpload: `DELETE /{bucket}/{key}?uploadId=ID`. */
export async function abortMultipartUpload(ctx: S3Context): Promise<Response> {
  const uploadId = ctx.url.searchParams.get("uploadId") ?? "";
  await openUploadOf(ctx, uploadId);
  await ctx.bucket.resumeMultipartUpload(ctx.key, uploadId).abort();
  await closeUpload(ctx.bucket, uploadId);
  return new Response(null, { status: 204 });
}
