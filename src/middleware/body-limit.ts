import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors/api-error";
import type { HonoEnv } from "./hono-env";

/** How much of a refused body is read and dropped before the connection is given up. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Reads and drops the rest of a refused body. A body left half-read stays on the
 * connection: under `wrangler dev` the next request on that keep-alive connection failed
 * with 503 "Your worker restarted mid-request" (cancelling the stream did not help).
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let dropped = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    dropped += value.byteLength;
    if (dropped > DRAIN_LIMIT_BYTES) {
      await reader.cancel();
      return;
    }
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError("payload-too-large", `Request bodies are limited to ${maxBytes} bytes.`);
}

/**
 * Refuses bodies over `maxBytes` with 413, keeping at most that much in memory; a refused
 * body is drained (up to 64 MiB) so the connection stays usable.
 */
export function limitBody(maxBytes: number): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.header("content-length");
    if (declared !== undefined && !c.req.raw.headers.has("transfer-encoding")) {
      if (Number(declared) <= maxBytes) return next();
      await drain(body.getReader());
      throw tooLarge(maxBytes);
    }
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await drain(reader);
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
    const buffer = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      buffer.set(chunk, offset);
      offset += chunk.byteLength;
    }
    c.req.raw = new Request(c.req.raw, { body: buffer });
    return next();
  };
}
