import { env } from "cloudflare:workers";
import { handleS3Request, type S3SimulatorOptions } from "../../../../simulators/r2-s3";
import { R2S3Storage } from "../../../../src/ports/storage/r2-s3";

/** The R2 API token the simulator checks and the adapter signs with. */
export const CREDENTIALS = { accessKeyId: "AKIDSIM", secretAccessKey: "simulated-secret" };
/** Browsers from here may PUT with content-type and read ETag, as the deploy's CORS rule says. */
export const APP_ORIGIN = "http://localhost:8787";
export const MiB = 1024 * 1024;

/** The simulator's options for the test bucket, with a settable clock. */
export function simulatorOptions(now: () => number = Date.now): S3SimulatorOptions {
  return {
    credentials: CREDENTIALS,
    bucketName: "media",
    cors: [
      {
        AllowedOrigins: [APP_ORIGIN],
        AllowedMethods: ["GET", "HEAD", "PUT"],
        AllowedHeaders: ["content-type"],
        ExposeHeaders: ["ETag"],
        MaxAgeSeconds: 3600,
      },
    ],
    now,
  };
}

/** Sends a request to the simulator over the test's R2 bucket. */
export function send(request: Request, options = simulatorOptions()): Promise<Response> {
  return handleS3Request(request, env.MEDIA_BUCKET, options);
}

/** The production adapter, talking to the simulator instead of R2's endpoint. */
export function productionStorage(options = simulatorOptions()): R2S3Storage {
  const fetcher = ((input: RequestInfo | URL, init?: RequestInit) =>
    send(new Request(input, init), options)) as typeof fetch;
  return new R2S3Storage({ accountId: "acct", bucket: "media" }, CREDENTIALS, fetcher);
}

/** A browser-like PUT of `bytes` to a presigned URL (Content-Length declared, as browsers do). */
export function putTo(url: string, bytes: Uint8Array, headers: Record<string, string> = {}) {
  return send(
    new Request(url, {
      method: "PUT",
      body: bytes,
      headers: { "content-length": String(bytes.byteLength), ...headers },
    }),
  );
}

/** `size` bytes of a repeating pattern starting at `seed`. */
export function bytesOf(size: number, seed = 0): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i + seed) & 0xff;
  return bytes;
}

/** MD5 hex of bytes. */
export async function md5(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("MD5", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
