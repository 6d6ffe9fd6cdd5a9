import { AwsClient } from "aws4fetch";
import { XMLParser } from "fast-xml-parser";
import type {
  SigningContext,
  StorageTarget,
  StoredObject,
  StoredPart,
  UploadStorage,
} from "./port";
import { presignGetUrl, presignUrl, type S3Credentials } from "./sigv4";

/** Where the bucket lives on R2's S3-compatible endpoint. */
export interface R2S3Location {
  accountId: string;
  bucket: string;
  /** The S3 API's origin; R2's own (`https://<accountId>.r2.cloudflarestorage.com`) when left out. */
  endpoint?: string;
}

const xml = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  // XML allows a quote as `&#34;` (Go's encoding/xml writes ETags so); the parser decodes
  // numeric character references only with this option.
  htmlEntities: true,
  isArray: (name: string) => name === "Part",
});

function unquote(etag: string): string {
  return etag.replace(/^"|"$/g, "");
}

function text(value: unknown): string {
  return typeof value === "string"
    ? value
    : value === undefined || value === null
      ? ""
      : String(value);
}

/**
 * Production adapter: presigned targets and multipart calls go to R2's S3 endpoint,
 * signed with the service's R2 API token (aws4fetch).
 */
export class R2S3Storage implements UploadStorage {
  private readonly client: AwsClient;

  constructor(
    private readonly location: R2S3Location,
    private readonly credentials: S3Credentials,
    fetcher: typeof fetch = fetch,
  ) {
    this.client = new AwsClient({ ...credentials, service: "s3", region: "auto" });
    this.send = (url, init) => this.client.sign(url, init).then((signed) => fetcher(signed));
  }

  private readonly send: (url: string, init: RequestInit) => Promise<Response>;

  private objectUrl(key: string): URL {
    const path = key.split("/").map(encodeURIComponent).join("/");
    const origin =
      this.location.endpoint ?? `https://${this.location.accountId}.r2.cloudflarestorage.com`;
    return new URL(`${origin.replace(/\/+$/, "")}/${this.location.bucket}/${path}`);
  }

  private async call(
    method: string,
    url: URL,
    body?: string,
  ): Promise<{ status: number; doc: Record<string, unknown> }> {
    const res = await this.send(url.toString(), {
      method,
      ...(body === undefined ? {} : { body }),
    });
    const raw = await res.text();
    const doc = raw.trim() === "" ? {} : (xml.parse(raw) as Record<string, unknown>);
    if (!res.ok && res.status !== 404) {
      const error = (doc.Error ?? {}) as Record<string, unknown>;
      throw new Error(`R2 S3 ${method} answered ${res.status} ${text(error.Code)}`);
    }
    return { status: res.status, doc };
  }

  async createMultipart(key: string, contentType: string): Promise<string> {
    const url = this.objectUrl(key);
    url.search = "uploads";
    const res = await this.send(url.toString(), {
      method: "POST",
      headers: { "content-type": contentType },
    });
    const doc = xml.parse(await res.text()) as {
      InitiateMultipartUploadResult?: { UploadId?: unknown };
    };
    const uploadId = text(doc.InitiateMultipartUploadResult?.UploadId);
    if (!res.ok || uploadId === "")
      throw new Error(`R2 S3 CreateMultipartUpload answered ${res.status}`);
    return uploadId;
  }

  async presignPut(
    key: string,
    contentType: string,
    expiresAt: Date,
    _ctx: SigningContext,
  ): Promise<StorageTarget> {
    const url = await presignUrl(this.credentials, "PUT", this.objectUrl(key), expiresAt);
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
    _ctx: SigningContext,
  ): Promise<StorageTarget> {
    const target = this.objectUrl(key);
    target.searchParams.set("partNumber", String(partNumber));
    target.searchParams.set("uploadId", uploadId);
    const url = await presignUrl(this.credentials, "PUT", target, expiresAt);
    return {
      method: "put",
      url,
      headers: {},
      part_number: partNumber,
      expires_at: expiresAt.toISOString(),
    };
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[] | null> {
    const parts: StoredPart[] = [];
    let marker = "0";
    for (;;) {
      const url = this.objectUrl(key);
      url.searchParams.set("uploadId", uploadId);
      url.searchParams.set("max-parts", "1000");
      url.searchParams.set("part-number-marker", marker);
      const { status, doc } = await this.call("GET", url);
      if (status === 404) return null;
      const result = (doc.ListPartsResult ?? {}) as {
        Part?: Record<string, unknown>[];
        IsTruncated?: unknown;
        NextPartNumberMarker?: unknown;
      };
      for (const part of result.Part ?? []) {
        parts.push({
          partNumber: Number(text(part.PartNumber)),
          etag: unquote(text(part.ETag)),
          size: Number(text(part.Size)),
        });
      }
      if (text(result.IsTruncated) !== "true")
        return parts.sort((a, b) => a.partNumber - b.partNumber);
      marker = text(result.NextPartNumberMarker);
    }
  }

  async completeMultipart(key: string, uploadId: string, parts: StoredPart[]): Promise<number> {
    const url = this.objectUrl(key);
    url.searchParams.set("uploadId", uploadId);
    const body = `<CompleteMultipartUpload>${parts
      .map(
        (part) =>
          `<Part><PartNumber>${part.partNumber}</PartNumber><ETag>"${part.etag}"</ETag></Part>`,
      )
      .join("")}</CompleteMultipartUpload>`;
    const { status, doc } = await this.call("POST", url, body);
    if (status === 404 || doc.Error !== undefined)
      throw new Error("R2 S3 CompleteMultipartUpload failed");
    const head = await this.send(this.objectUrl(key).toString(), { method: "HEAD" });
    if (!head.ok) throw new Error(`R2 S3 HeadObject answered ${head.status}`);
    return Number(head.headers.get("content-length"));
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    const url = this.objectUrl(key);
    url.searchParams.set("uploadId", uploadId);
    await this.call("DELETE", url);
  }

  async headObject(key: string): Promise<StoredObject | null> {
    const res = await this.send(this.objectUrl(key).toString(), { method: "HEAD" });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`R2 S3 HeadObject answered ${res.status}`);
    return {
      size: Number(res.headers.get("content-length")),
      etag: unquote(res.headers.get("etag") ?? ""),
    };
  }

  async copyObject(from: string, to: string, etag: string): Promise<StoredObject | null> {
    const source = `/${this.location.bucket}/${from.split("/").map(encodeURIComponent).join("/")}`;
    // CopyObject runs inside R2: no bytes pass through the Worker.
    const res = await this.send(this.objectUrl(to).toString(), {
      method: "PUT",
      headers: { "x-amz-copy-source": source, "x-amz-copy-source-if-match": `"${etag}"` },
    });
    const raw = await res.text();
    if (res.status === 404 || res.status === 412) return null;
    const doc = raw.trim() === "" ? {} : (xml.parse(raw) as Record<string, unknown>);
    // S3 may answer 200 with an error document when a copy fails midway.
    if (!res.ok || doc.Error !== undefined)
      throw new Error(`R2 S3 CopyObject answered ${res.status}`);
    return this.headObject(to);
  }

  async deleteObject(key: string): Promise<void> {
    await this.call("DELETE", this.objectUrl(key));
  }

  async presignGet(key: string, expiresAt: Date, _ctx: SigningContext): Promise<string> {
    return presignGetUrl(this.credentials, this.objectUrl(key), expiresAt);
  }
}
