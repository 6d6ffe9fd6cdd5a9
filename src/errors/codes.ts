/**
 * The one table of error codes: each maps to its HTTP status and title. ApiError, the
 * error handler and the documented responses of every route are all built from it.
 */
export const ERROR_CODES = {
  "invalid-request": { status: 400, title: "The request is invalid" },
  unauthorized: { status: 401, title: "Authentication is required" },
  forbidden: { status: 403, title: "The key may not perform this operation" },
  "resource-not-found": { status: 404, title: "The resource does not exist" },
  "method-not-allowed": { status: 405, title: "The method is not allowed on this resource" },
  "not-acceptable": { status: 406, title: "The resource is not available in the requested type" },
  conflict: { status: 409, title: "The request conflicts with the resource's state" },
  "idempotency-key-in-use": {
    status: 409,
    title: "A request with this idempotency key is still being processed",
  },
  "video-deleted": { status: 409, title: "The video was deleted" },
  "upload-incomplete": { status: 409, title: "The upload is missing parts" },
  "upload-size-mismatch": { status: 409, title: "The stored bytes do not match file_size" },
  "upload-expired": { status: 410, title: "The upload session has expired" },
  "csv-import-expired": { status: 410, title: "The CSV import session has expired" },
  "payload-too-large": { status: 413, title: "The request body is too large" },
  "unsupported-media-type": { status: 415, title: "The request body must be application/json" },
  "idempotency-key-mismatch": {
    status: 422,
    title: "The idempotency key was used with a different request",
  },
  "rate-limited": {
    status: 429,
    title: "The workspace has sent too many requests of this kind",
  },
  "internal-error": { status: 500, title: "Internal server error" },
} as const satisfies Record<string, { status: number; title: string }>;

/** Every problem code the API can answer with. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** HTTP statuses that appear in the table. */
export type ErrorStatus = (typeof ERROR_CODES)[ErrorCode]["status"];

/** The codes that share one HTTP status, for documenting a route's responses. */
export function codesForStatus(status: number): ErrorCode[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter(
    (code) => ERROR_CODES[code].status === status,
  );
}
