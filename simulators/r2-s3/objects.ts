import type { PayloadHash } from "./auth";
import { declaredLength, type S3Context } from "./context";
import { etagOf, forgetEtag, recordEtag } from "./ledger";
import { R2_LIMITS } from "./limits";
import { measure } from "./stream";
import { element, resultXml, S3Error, xmlResponse } from "./xml";

const NO_SUCH_KEY = "The specified key does not exist.";
const PRECONDITION = "At least one of the preconditions you specified did not hold.";

/** Stores a stream of known size under `key`; answers its S3 ETag (MD5 of the bytes). */
async function store(
  ctx: S3Context,
  body: ReadableStream<Uint8Array>,
  size: number,
  httpMetadata: R2HTTPMetadata,
  payload: PayloadHash,
): Promise<{ etag: string; uploaded: Date }> {
  if (size > R2_LIMITS.maxPutBytes) {
    throw new S3Error(
      "EntityTooLarge",
      "Your proposed upload exceeds the maximum allowed object size.",
    );
  }
  const measured = measure(body, size, payload.kind === "sha256");
  const stored = ctx.bucket.put(ctx.key, measured.stream, { httpMetadata });
  const { md5, sha256 } = await measured.finish(stored);
  const object = await stored;
  if (payload.kind === "sha256" && sha256 !== payload.hex) {
    await ctx.bucket.delete(ctx.key);
    throw new S3Error(
      "XAmzContentSHA256Mismatch",
      "The provided 'x-amz-content-sha256' header does not match what was computed.",
    );
  }
  if (object === null) throw new S3Error("PreconditionFailed", PRECONDITION);
  if (object.etag === md5) await forgetEtag(ctx.bucket, ctx.key);
  else await recordEtag(ctx.bucket, ctx.key, object.etag, md5);
  return { etag: md5, uploaded: object.uploaded };
}

/** PutObject: `PUT /{bucket}/{key}`, streamed. */
export async function putObject(ctx: S3Context, payload: PayloadHash): Promise<Response> {
  const size = declaredLength(ctx.request);
  const contentType = ctx.request.headers.get("content-type") ?? "application/octet-stream";
  const { etag } = await store(
    ctx,
    ctx.request.body ?? new ReadableStream(),
    size,
    { contentType },
    payload,
  );
  return new Response(null, { status: 200, headers: { ETag: `"${etag}"` } });
}

/** The ETags an If-Match style header lists, unquoted (`*` matches any). */
function etagList(header: string): string[] {
  return header.split(",").map((e) => e.trim().replace(/^W\//, "").replace(/^"|"$/g, ""));
}

/** Whether an object passes the S3 conditional headers named with `prefix`. */
function preconditionsHold(
  headers: Headers,
  prefix: string,
  etag: string,
  uploaded: Date,
): boolean {
  const ifMatch = headers.get(`${prefix}if-match`);
  const ifNoneMatch = headers.get(`${prefix}if-none-match`);
  const ifUnmodified = headers.get(`${prefix}if-unmodified-since`);
  const ifModified = headers.get(`${prefix}if-modified-since`);
  const matches = (list: string) => etagList(list).some((e) => e === "*" || e === etag);
  if (ifMatch !== null && !matches(ifMatch)) return false;
  if (ifNoneMatch !== null && matches(ifNoneMatch)) return false;
  const second = Math.floor(uploaded.getTime() / 1000) * 1000;
  if (ifMatch === null && ifUnmodified !== null && second > Date.parse(ifUnmodified)) return false;
  if (ifNoneMatch === null && ifModified !== null && second <= Date.parse(ifModified)) return false;
  return true;
}

/** The bucket and key an `x-amz-copy-source` names (`/bucket/key` or `bucket/key`, URL-encoded). */
function copySource(header: string): { bucket: string; key: string } {
  let decoded: string;
  try {
    decoded = decodeURIComponent(header.split("?")[0] ?? "");
  } catch {
    throw new S3Error(
      "InvalidArgument",
      "Copy Source must mention the source bucket and key: sourcebucket/sourcekey.",
    );
  }
  const path = decoded.replace(/^\//, "");
  const slash = path.indexOf("/");
  if (slash < 1 || slash === path.length - 1) {
    throw new S3Error(
      "InvalidArgument",
      "Copy Source must mention the source bucket and key: sourcebucket/sourcekey.",
    );
  }
  return { bucket: path.slice(0, slash), key: path.slice(slash + 1) };
}

/** CopyObject: `PUT /{bucket}/{key}` with `x-amz-copy-source` and its conditional headers. */
export async function copyObject(ctx: S3Context, header: string): Promise<Response> {
  const from = copySource(header);
  if (from.bucket !== ctx.bucketName)
    throw new S3Error("NoSuchBucket", "The specified bucket does not exist.");
  const source = await ctx.bucket.get(from.key);
  if (source === null) throw new S3Error("NoSuchKey", NO_SUCH_KEY);
  const etag = await etagOf(ctx.bucket, from.key, source);
  if (!preconditionsHold(ctx.request.headers, "x-amz-copy-source-", etag, source.uploaded)) {
    await source.body.cancel();
    throw new S3Error("PreconditionFailed", PRECONDITION);
  }
  const replace = ctx.request.headers.get("x-amz-metadata-directive") === "REPLACE";
  const httpMetadata = replace
    ? { contentType: ctx.request.headers.get("content-type") ?? "application/octet-stream" }
    : (source.httpMetadata ?? {});
  const copied = await store(ctx, source.body, source.size, httpMetadata, { kind: "unsigned" });
  const body =
    element("LastModified", copied.uploaded.toISOString()) + element("ETag", `"${copied.etag}"`);
  return xmlResponse(200, resultXml("CopyObjectResult", body));
}

/** A Range header resolved against a size, or null for the whole object. */
function rangeOf(header: string | null, size: number): { offset: number; length: number } | null {
  if (header === null) return null;
  const m = header.match(/^bytes=(\d*)-(\d*)$/);
  if (!m || (m[1] === "" && m[2] === "")) return null;
  const [, from = "", to = ""] = m;
  if (from === "") {
    const suffix = Math.min(Number(to), size);
    if (suffix === 0) throw new S3Error("InvalidRange", "The requested range is not satisfiable");
    return { offset: size - suffix, length: suffix };
  }
  const offset = Number(from);
  if (offset >= size) throw new S3Error("InvalidRange", "The requested range is not satisfiable");
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (end < offset) return null;
  return { offset, length: end - offset + 1 };
}

/** GetObject and HeadObject, with Range and If-Match / If-None-Match. */
export async function getObject(ctx: S3Context): Promise<Response> {
  const head = await ctx.bucket.head(ctx.key);
  if (head === null) throw new S3Error("NoSuchKey", NO_SUCH_KEY);
  const etag = await etagOf(ctx.bucket, ctx.key, head);
  const headers = new Headers({ ETag: `"${etag}"`, "Accept-Ranges": "bytes" });
  head.writeHttpMetadata(headers);
  headers.set("Last-Modified", head.uploaded.toUTCString());
  const ifNoneMatch = ctx.request.headers.get("if-none-match");
  if (ifNoneMatch !== null && etagList(ifNoneMatch).some((e) => e === "*" || e === etag)) {
    return new Response(null, { status: 304, headers });
  }
  if (!preconditionsHold(ctx.request.headers, "", etag, head.uploaded)) {
    throw new S3Error("PreconditionFailed", PRECONDITION);
  }
  let range: { offset: number; length: number } | null;
  try {
    range = rangeOf(ctx.request.headers.get("range"), head.size);
  } catch (error) {
    if (!(error instanceof S3Error)) throw error;
    return error.toResponse({ "Content-Range": `bytes */${head.size}` }, ctx.request.method);
  }
  const length = range?.length ?? head.size;
  headers.set("Content-Length", String(length));
  if (range)
    headers.set("Content-Range", `bytes ${range.offset}-${range.offset + length - 1}/${head.size}`);
  const status = range ? 206 : 200;
  if (ctx.request.method === "HEAD") return new Response(null, { status, headers });
  const object = await ctx.bucket.get(ctx.key, range ? { range } : {});
  if (object === null) throw new S3Error("NoSuchKey", NO_SUCH_KEY);
  return new Response(object.body, { status, headers });
}

/** DeleteObject: 204 whether or not the key existed. */
export async function deleteObject(ctx: S3Context): Promise<Response> {
  await ctx.bucket.delete(ctx.key);
  await forgetEtag(ctx.bucket, ctx.key);
  return new Response(null, { status: 204 });
}
