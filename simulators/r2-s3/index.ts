import type { S3Credentials } from "../../src/ports/storage/sigv4";
import { RESERVED_PREFIXES } from "../reserved-prefixes";
import { authenticate } from "./auth";
import type { S3Context } from "./context";
import { type CorsRule, preflight, withCors } from "./cors";
import { R2_LIMITS } from "./limits";
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  listParts,
  uploadPart,
} from "./multipart";
import { copyObject, deleteObject, getObject, putObject } from "./objects";
import { S3Error } from "./xml";

export type { CorsRule } from "./cors";

/** How the simulator is set up: what it verifies against, where it is served, whom it lets in. */
export interface S3SimulatorOptions {
  /** The R2 API token's S3 credentials every request must be signed with. */
  credentials: S3Credentials;
  /** The bucket name in `/{bucket}/{key}`; any other bucket is NoSuchBucket. */
  bucketName: string;
  /** Path the simulator is mounted under, e.g. `/__r2`; empty for the root. */
  basePath?: string;
  /** The bucket's CORS rules; none means browsers are refused, as on a bucket without any. */
  cors?: readonly CorsRule[];
  /** Clock for expiry and skew checks (ms since the epoch). */
  now?: () => number;
}

/** The object key a path names under `/{base}/{bucket}/`, or null when it names another bucket. */
function keyOf(url: URL, options: S3SimulatorOptions): string | null {
  const prefix = `${options.basePath ?? ""}/${options.bucketName}/`;
  if (!url.pathname.startsWith(prefix)) return null;
  let key: string;
  try {
    key = url.pathname.slice(prefix.length).split("/").map(decodeURIComponent).join("/");
  } catch {
    throw new S3Error("InvalidObjectName", "The object key is not valid UTF-8 percent-encoding.");
  }
  if (key === "" || new TextEncoder().encode(key).length > R2_LIMITS.maxKeyBytes) {
    throw new S3Error("InvalidObjectName", "Object keys are 1 to 1,024 bytes long.");
  }
  if (RESERVED_PREFIXES.some((prefix) => key.startsWith(prefix)))
    throw new S3Error("AccessDenied", "Access Denied");
  return key;
}

async function route(ctx: S3Context, payload: Awaited<ReturnType<typeof authenticate>>) {
  const { method } = ctx.request;
  const params = ctx.url.searchParams;
  const copy = ctx.request.headers.get("x-amz-copy-source");
  if (method === "POST" && params.has("uploads")) return createMultipartUpload(ctx);
  if (method === "POST" && params.has("uploadId")) return completeMultipartUpload(ctx, payload);
  if (method === "PUT" && params.has("uploadId")) {
    if (copy !== null) throw new S3Error("NotImplemented", "UploadPartCopy is not simulated.");
    return uploadPart(ctx, payload);
  }
  if (method === "PUT" && copy !== null) return copyObject(ctx, copy);
  if (method === "PUT") return putObject(ctx, payload);
  if (method === "GET" && params.has("uploadId")) return listParts(ctx);
  if (method === "GET" || method === "HEAD") return getObject(ctx);
  if (method === "DELETE" && params.has("uploadId")) return abortMultipartUpload(ctx);
  if (method === "DELETE") return deleteObject(ctx);
  throw new S3Error(
    "MethodNotAllowed",
    "The specified method is not allowed against this resource.",
  );
}

/**
 * R2's S3 API over an R2 binding, for running the production storage adapter locally: path-style
 * `/{bucket}/{key}` under `basePath`, SigV4 (presigned or header-signed, region `auto`, service
 * `s3`) checked against `credentials`, R2's part and object limits, S3-shaped XML replies and
 * errors, and the bucket's CORS rules. Bodies stream to the binding; nothing is buffered whole.
 */
export async function handleS3Request(
  request: Request,
  bucket: R2Bucket,
  options: S3SimulatorOptions,
): Promise<Response> {
  const cors = options.cors ?? [];
  if (request.method === "OPTIONS") return preflight(request, cors);
  const url = new URL(request.url);
  const now = options.now?.() ?? Date.now();
  let response: Response;
  try {
    const key = keyOf(url, options);
    if (key === null) throw new S3Error("NoSuchBucket", "The specified bucket does not exist.");
    const payload = await authenticate(request, url, options.credentials, now);
    const ctx = { request, url, bucket, bucketName: options.bucketName, key, now };
    response = await route(ctx, payload);
  } catch (error) {
    if (!(error instanceof S3Error)) throw error;
    response = error.toResponse({}, request.method);
  }
  return withCors(request, response, cors);
}
