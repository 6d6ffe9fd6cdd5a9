import type { MiddlewareHandler } from "hono";
import { ApiError, invalidRequest } from "../errors/api-error";
import type { HonoEnv } from "./hono-env";

/** How much of a refused body is read and dropped before the connection is given up. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/** Methods whose requests the fetch API cannot carry a body on once it is read. */
const BODILESS = new Set(["GET", "HEAD"]);

/**
 * Reads and drops the rest of a refused body. A body left half-read stays on the
 * connection: under `wrangler dev` the next request on that keep-alive connection failed
 * with 503 "Your worker restarted mid-request" (cancelling the stream did not help). A
 * client that hangs up meanwhile ends the draining, not the refusal.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let dropped = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
      if (dropped > DRAIN_LIMIT_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The stream failed (the client went away): there is nothing left to drain.
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError("payload-too-large", `Request bodies are limited to ${maxBytes} bytes.`);
}

/**
 * A body whose stream failed before its end: the client hung up, or sent fewer bytes than its
 * Content-Length. A fault of the request, answered 400 like any other malformed body.
 */
function cutOff(declared: string | undefined): ApiError {
  const promised = declared === undefined ? "" : ` (Content-Length ${declared})`;
  return invalidRequest([{ path: "body", message: `ended before all of it arrived${promised}` }]);
}

/** The whole body, or the ApiError that refuses it: over `maxBytes`, or cut off. */
export async function readBody(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  declared?: string,
): Promise<Uint8Array> {
  const reader = body.getReader();
  if (declared !== undefined && Number(declared) > maxBytes) {
    await drain(reader);
    throw tooLarge(maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      throw cutOff(declared);
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > maxBytes) {
      await drain(reader);
      throw tooLarge(maxBytes);
    }
    chunks.push(chunk.value);
  }
  const buffer = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    buffer.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return buffer;
}

/**
 * Reads every request body before anything else does, whatever the method: over `maxBytes`
 * it answers 413 (keeping at most that much in memory, draining up to 64 MiB so the
 * connection stays usable), cut off 400, never an internal error. The body then reaches the
 * routes whole; a GET's or HEAD's, which no route reads, is dropped.
 */
export function limitBody(maxBytes: number): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const bytes = await readBody(raw.body, maxBytes, c.req.header("content-length"));
    if (BODILESS.has(raw.method)) {
      const headers = new Headers(raw.headers);
      headers.delete("content-length");
      headers.delete("transfer-encoding");
      c.req.raw = new Request(raw.url, { method: raw.method, headers });
    } else c.req.raw = new Request(raw, { body: bytes });
    return next();
  };
}
