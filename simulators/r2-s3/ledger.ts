/**
 * What the R2 binding does not keep for the S3 API: which uploads are open (and for which key),
 * each uploaded part's size and MD5, and the S3 ETag of each completed multipart object. Kept
 * in the same bucket under a prefix that S3 requests may not touch.
 */
export const LEDGER_PREFIX = "__r2-s3-simulator/";

/** One uploaded part, as ListParts and CompleteMultipartUpload see it. */
export interface LedgerPart {
  partNumber: number;
  size: number;
  /** MD5 of the part, hex: R2's part ETag. */
  md5: string;
  /** The binding's own ETag of the part, which `complete()` needs. */
  bindingEtag: string;
  lastModified: string;
}

const uploadKey = (uploadId: string) => `${LEDGER_PREFIX}uploads/${uploadId}`;
const partsPrefix = (uploadId: string) => `${uploadKey(uploadId)}/parts/`;

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// Keys run to 1,024 bytes, so the ledger names an object by its key's hash.
const etagKey = async (key: string) => `${LEDGER_PREFIX}etags/${await sha256Hex(key)}`;

/** Records an open upload of `key`. */
export async function openUpload(bucket: R2Bucket, uploadId: string, key: string): Promise<void> {
  await bucket.put(uploadKey(uploadId), "", { customMetadata: { key } });
}

/** The key an open upload belongs to, or null when no such upload is open. */
export async function uploadOf(bucket: R2Bucket, uploadId: string): Promise<string | null> {
  if (uploadId === "" || uploadId.includes("/")) return null;
  const record = await bucket.head(uploadKey(uploadId));
  return record?.customMetadata?.key ?? null;
}

/** Records (or replaces) one uploaded part. */
export async function recordPart(
  bucket: R2Bucket,
  uploadId: string,
  part: LedgerPart,
): Promise<void> {
  const name = `${partsPrefix(uploadId)}${String(part.partNumber).padStart(5, "0")}`;
  await bucket.put(name, "", {
    customMetadata: {
      size: String(part.size),
      md5: part.md5,
      bindingEtag: part.bindingEtag,
      lastModified: part.lastModified,
    },
  });
}

/** Every recorded part of an upload, by part number. */
export async function partsOf(bucket: R2Bucket, uploadId: string): Promise<LedgerPart[]> {
  const parts: LedgerPart[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({
      prefix: partsPrefix(uploadId),
      include: ["customMetadata"],
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const object of page.objects) {
      const meta = object.customMetadata ?? {};
      parts.push({
        partNumber: Number(object.key.slice(-5)),
        size: Number(meta.size),
        md5: meta.md5 ?? "",
        bindingEtag: meta.bindingEtag ?? "",
        lastModified: meta.lastModified ?? "",
      });
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return parts.sort((a, b) => a.partNumber - b.partNumber);
}

/** Forgets an upload and its parts (completed or aborted). */
export async function closeUpload(bucket: R2Bucket, uploadId: string): Promise<void> {
  for (;;) {
    const page = await bucket.list({ prefix: partsPrefix(uploadId) });
    if (page.objects.length === 0) break;
    await bucket.delete(page.objects.map((object) => object.key));
  }
  await bucket.delete(uploadKey(uploadId));
}

/** Remembers the S3 ETag of an object whose binding ETag differs (a completed multipart). */
export async function recordEtag(bucket: R2Bucket, key: string, bindingEtag: string, etag: string) {
  await bucket.put(await etagKey(key), "", { customMetadata: { bindingEtag, etag } });
}

/** Forgets the S3 ETag of a deleted or replaced object. */
export async function forgetEtag(bucket: R2Bucket, key: string): Promise<void> {
  await bucket.delete(await etagKey(key));
}

/** The S3 ETag (unquoted) of a stored object. */
export async function etagOf(bucket: R2Bucket, key: string, object: R2Object): Promise<string> {
  const record = await bucket.head(await etagKey(key));
  const meta = record?.customMetadata;
  return meta?.bindingEtag === object.etag && meta.etag ? meta.etag : object.etag;
}
