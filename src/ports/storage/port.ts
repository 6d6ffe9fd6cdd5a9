/**
 * A presigned storage target: PUT the bytes to `url` with `headers` (the spec's Upload session
 * section).
 */
export interface StorageTarget {
  method: "put";
  url: string;
  headers: Record<string, string>;
  part_number: number;
  expires_at: string;
}

/** A part as storage holds it. `etag` is unquoted. */
export interface StoredPart {
  partNumber: number;
  etag: string;
  size: number;
}

/** An object as storage holds it. `etag` is unquoted. */
export interface StoredObject {
  size: number;
  etag: string;
}

/** Where signed URLs point: the origin the client reached the API on (local gateway only). */
export interface SigningContext {
  origin: string;
}

/**
 * Object storage for uploads and media, as the API needs it. Production signs against
 * R2's S3 endpoint; locally a gateway route of this Worker plays S3's part. Either way a
 * client PUTs to `target.url` and reads the `ETag` header.
 */
export interface UploadStorage {
  /** Starts a multipart upload of `key`; returns its upload id. */
  createMultipart(key: string, contentType: string): Promise<string>;
  /** A single-PUT target for the whole object. */
  presignPut(
    key: string,
    contentType: string,
    expiresAt: Date,
    ctx: SigningContext,
  ): Promise<StorageTarget>;
  /** A target for one part of a multipart upload. */
  presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    expiresAt: Date,
    ctx: SigningContext,
  ): Promise<StorageTarget>;
  /** The parts storage holds for an upload (ListParts), ascending; null when the upload is gone. */
  listParts(key: string, uploadId: string): Promise<StoredPart[] | null>;
  /** Completes a multipart upload from these parts; returns the object's size. */
  completeMultipart(key: string, uploadId: string, parts: StoredPart[]): Promise<number>;
  /** Aborts a multipart upload; a missing upload is not an error. */
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /** The object's size and ETag; null when there is no such object. */
  headObject(key: string): Promise<StoredObject | null>;
  /**
   * Copies `from` to `to` (content type included) if `from` still has ETag `etag`;
   * answers the copy, or null when `from` is gone or changed. Streams, never buffers.
   */
  copyObject(from: string, to: string, etag: string): Promise<StoredObject | null>;
  /** Deletes an object; a missing object is not an error. */
  deleteObject(key: string): Promise<void>;
  /** A signed, expiring GET URL for reading an object (thumbnails, clips). */
  presignGet(key: string, expiresAt: Date, ctx: SigningContext): Promise<string>;
}
