import { S3Error } from "./xml";

/** Hex of a digest. */
export function hex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The digests of a body that streamed through `measure`. */
export interface Measured {
  md5: string;
  sha256: string | null;
}

/**
 * Streams a request body of a declared size on to storage while hashing it, so no part is held
 * in memory: `stream` has the known length the R2 binding needs; `finish` waits for the copy
 * and the digests and refuses a body shorter or longer than declared. (workerd cannot pipe a
 * tee of a request body into a FixedLengthStream, so the digests are fed from a transform.)
 */
export function measure(
  body: ReadableStream<Uint8Array>,
  size: number,
  withSha256: boolean,
): { stream: ReadableStream<Uint8Array>; finish: (stored: Promise<unknown>) => Promise<Measured> } {
  const md5 = new crypto.DigestStream("MD5");
  const sha = withSha256 ? new crypto.DigestStream("SHA-256") : null;
  const digests = [md5, ...(sha ? [sha] : [])].map((d) => d.getWriter());
  const hashing = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      // The digests get a copy: the storage side may take over the chunk's buffer.
      for (const writer of digests) await writer.write(new Uint8Array(chunk));
      controller.enqueue(chunk);
    },
    async flush() {
      for (const writer of digests) await writer.close();
    },
  });
  const fixed = new FixedLengthStream(size);
  const copied = body.pipeThrough(hashing).pipeTo(fixed.writable);
  return {
    stream: fixed.readable,
    async finish(stored) {
      const settled = await Promise.allSettled([copied, stored]);
      if (settled.some((s) => s.status === "rejected")) {
        for (const writer of digests) writer.abort().catch(() => {});
        throw new S3Error(
          "IncompleteBody",
          "You did not provide the number of bytes specified by the Content-Length HTTP header.",
        );
      }
      return { md5: hex(await md5.digest), sha256: sha ? hex(await sha.digest) : null };
    },
  };
}

/** R2's ETag of a multipart object: MD5 of the parts' binary MD5s, then `-N` (r2/objects/multipart-objects). */
export async function multipartEtag(partMd5s: string[]): Promise<string> {
  const bytes = new Uint8Array(partMd5s.length * 16);
  partMd5s.forEach((md5, i) => {
    for (let j = 0; j < 16; j++)
      bytes[i * 16 + j] = Number.parseInt(md5.slice(j * 2, j * 2 + 2), 16);
  });
  return `${hex(await crypto.subtle.digest("MD5", bytes))}-${partMd5s.length}`;
}
