const MiB = 1024 * 1024;

/**
 * R2's documented limits on the S3 API (developers.cloudflare.com/r2/platform/limits and
 * r2/objects/multipart-objects): every part but the last at least 5 MiB and all of one size,
 * the last never larger; at most 10,000 parts; one part or one PUT at most 5 GiB − 5 MiB;
 * keys at most 1,024 bytes.
 */
export const R2_LIMITS = {
  minPartBytes: 5 * MiB,
  maxPartBytes: 5 * 1024 * MiB - 5 * MiB,
  maxPutBytes: 5 * 1024 * MiB - 5 * MiB,
  maxParts: 10_000,
  maxKeyBytes: 1024,
  /** ListParts answers at most 1,000 parts a page (S3 API Reference, ListParts). */
  maxListParts: 1000,
};
