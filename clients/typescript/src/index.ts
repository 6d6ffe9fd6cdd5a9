// The browser-safe entry: Web APIs only (fetch, Blob, Web Crypto). File paths live in ./node.
import { VasClient, type VasClientOptions } from "./client.js";

export { CAPTION_CONTENT_TYPES, type CaptionFormat, captionFormatOf } from "./captions.js";
export { VasClient, type VasClientOptions } from "./client.js";
export type { Clock } from "./clock.js";
export {
  type ClientProblemCode,
  type Problem,
  type ProblemDocument,
  VasError,
  type VasErrorKind,
} from "./errors.js";
export type { components, operations, paths } from "./generated/openapi.js";
export { API_PREFIX, apiRoot, type FetchLike } from "./http.js";
export { collect, type Page, paginate } from "./paginate.js";
export type { RateLimitNotice, RateLimitOptions } from "./rate-limit.js";
export type { RetryOptions } from "./retry.js";
export type * from "./types.js";
export { type UploadOptions, type UploadProgress, uploadFile } from "./upload.js";
export type { WaitOptions } from "./wait.js";
export { verifyWebhook, type WebhookInput } from "./webhooks.js";

/** A client for one service and key. */
export function createVasClient(options: VasClientOptions): VasClient {
  return new VasClient(options);
}
