import { hmacSha256, toHex } from "../../../lib/crypto";
import type {
  SigningContext,
  StorageTarget,
  StoredObject,
  StoredPart,
  UploadStorage,
} from "../port";
import { presignGetUrl, presignUrl, type S3Credentials } from "../sigv4";
import { GATEWAY_PREFIX, LEDGER_ENTRY, ledgerPrefix, openMarkerKey, partsPrefix } from "./ledger";

/** The credentials the local gateway signs and verifies with, derived from SIGNING_SECRET. */
export async function gatewayCredentials(signingSecret: string): Promise<S3Credentials> {
  return {
    accessKeyId: "local-gateway",
    secretAccessKey: toHex(await hmacSha256(signingSecret, "storage-gateway-credentials")),
  };
}

/** The URL of an object on the gateway. */
export function gatewayUrl(origin: string, key: string): URL {
  return new URL(`${GATEWAY_PREFIX}/${key.split("/").map(encodeURIComponent).join("/")}`, origin);
}

/**
 * Local adapter: targets point at the gateway route of this Worker, which verifies the
 * same SigV4 query signature S3 would and writes into the R2 binding. The local R2 binding
 * has no ListParts, so the gateway keeps a ledger of the parts it stored.
 */
export class LocalGatewayStorage implements UploadStorage {
  constructor(
    private readonly bucket: R2Bucket,
    private readonly credentials: Promise<S3Credentials>,
  ) {}

  async createMultipart(key: string, contentType: string): Promise<string> {
    const upload = await this.bucket.createMultipartUpload(key, { httpMetadata: { contentType } });
    // Lets ListParts tell "no parts yet" from "no such upload".
    await this.bucket.put(openMarkerKey(upload.uploadId), "");
    return upload.uploadId;
  }

  async presignPut(
    key: string,
    contentType: string,
    expiresAt: Date,
    ctx: SigningContext,
  ): Promise<StorageTarget> {
    const url = await presignUrl(
      await this.credentials,
      "PUT",
      gatewayUrl(ctx.origin, key),
      expiresAt,
    );
    return {
      method: "put",
      url,
      headers: { "content-type": contentType },
      part_number: 1,
      expires_at: expiresAt.toISOString(),
    };
  }

  async presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    expiresAt: Date,
    ctx: SigningContext,
  ): Promise<StorageTarget> {
    const target = gatewayUrl(ctx.origin, key);
    target.searchParams.set("partNumber", String(partNumber));
    target.searchParams.set("uploadId", uploadId);
    const url = await presignUrl(await this.credentials, "PUT", target, expiresAt);
    return {
      method: "put",
      url,
      headers: {},
      part_number: partNumber,
      expires_at: expiresAt.toISOString(),
    };
  }

  async listParts(_key: string, uploadId: string): Promise<StoredPart[] | null> {
    if (!(await this.bucket.head(openMarkerKey(uploadId)))) return null;
    const parts: StoredPart[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.bucket.list({
        prefix: partsPrefix(uploadId),
        ...(cursor === undefined ? {} : { cursor }),
      });
      for (const object of page.objects) {
        const match = object.key.match(LEDGER_ENTRY);
        if (!match) continue;
        const [, partNumber, size, etag] = match;
        parts.push({
          partNumber: Number(partNumber),
          size: Number(size),
          etag: decodeURIComponent(etag ?? ""),
        });
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor !== undefined);
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(key: string, uploadId: string, parts: StoredPart[]): Promise<number> {
    const object = await this.bucket
      .resumeMultipartUpload(key, uploadId)
      .complete(parts.map((part) => ({ partNumber: part.partNumber, etag: part.etag })));
    await this.forget(uploadId);
    return object.size;
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.bucket.resumeMultipartUpload(key, uploadId).abort();
    } catch {
      // Already completed or aborted: nothing is left to abort.
    }
    await this.forget(uploadId);
  }

  async headObject(key: string): Promise<StoredObject | null> {
    const object = await this.bucket.head(key);
    return object ? { size: object.size, etag: object.etag } : null;
  }

  async copyObject(from: string, to: string, etag: string): Promise<StoredObject | null> {
    const source = await this.bucket.get(from, { onlyIf: { etagMatches: etag } });
    // A failed precondition answers the object's metadata without a body.
    if (!source || !("body" in source)) return null;
    const copy = await this.bucket.put(to, source.body, { httpMetadata: source.httpMetadata });
    return { size: copy.size, etag: copy.etag };
  }

  async deleteObject(key: string): Promise<void> {
    await this.bucket.delete(key);
  }

  async presignGet(key: string, expiresAt: Date, ctx: SigningContext): Promise<string> {
    return presignGetUrl(await this.credentials, gatewayUrl(ctx.origin, key), expiresAt);
  }

  private async forget(uploadId: string): Promise<void> {
    for (;;) {
      const listed = await this.bucket.list({ prefix: ledgerPrefix(uploadId) });
      const keys = listed.objects.map((object) => object.key);
      if (keys.length === 0) return;
      await this.bucket.delete(keys);
    }
  }
}
