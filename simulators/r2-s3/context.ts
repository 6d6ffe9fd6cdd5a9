import type { PayloadHash } from "./auth";
import { hex } from "./stream";
import { S3Error } from "./xml";

/** One authenticated request to an object of the simulated bucket. */
export interface S3Context {
  request: Request;
  url: URL;
  bucket: R2Bucket;
  bucketName: string;
  key: string;
  now: number;
}

/** XML request bodies (CompleteMultipartUpload) are read whole; larger ones are refused. */
const MAX_XML_BODY_BYTES = 1024 * 1024;

/** The declared Content-Length of a request that sends a body. */
export function declaredLength(request: Request): number {
  const header = request.headers.get("content-length");
  const size = header === null ? Number.NaN : Number(header);
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new S3Error("MissingContentLength", "You must provide the Content-Length HTTP header.");
  }
  return size;
}

/** A small request body as text, checked against a signed payload hash when there is one. */
export async function readSmallBody(request: Request, payload: PayloadHash): Promise<string> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_XML_BODY_BYTES) {
    throw new S3Error("InvalidRequest", "The request body is too large for this operation.");
  }
  if (
    payload.kind === "sha256" &&
    hex(await crypto.subtle.digest("SHA-256", bytes)) !== payload.hex
  ) {
    throw new S3Error(
      "XAmzContentSHA256Mismatch",
      "The provided 'x-amz-content-sha256' header does not match what was computed.",
    );
  }
  return new TextDecoder().decode(bytes);
}
