import type { IdempotencyKey } from "../durable-objects/idempotency-key";
import type { LocalVectorIndex } from "../durable-objects/local-vector-index";
import type { RunCoordinator } from "../durable-objects/run-coordinator";
import type { UploadSession } from "../durable-objects/upload-session";

/** Bindings and variables of the Worker, as declared in wrangler.toml and .dev.vars. */
export interface Env {
  DB: D1Database;
  MEDIA_BUCKET: R2Bucket;
  IDEMPOTENCY_KEYS: DurableObjectNamespace<IdempotencyKey>;
  UPLOAD_SESSIONS: DurableObjectNamespace<UploadSession>;
  RUNS: DurableObjectNamespace<RunCoordinator>;
  /** Local deployments only: the embedded vector index, one object per workspace. */
  LOCAL_INDEX: DurableObjectNamespace<LocalVectorIndex>;
  PROCESSING_QUEUE: Queue;
  INDEXING_QUEUE: Queue;
  ANALYSIS_QUEUE: Queue;
  WEBHOOK_QUEUE: Queue;
  /** Production only. */
  VECTORIZE?: Vectorize;
  /** Production only. */
  AI?: Ai;
  /** Production only: Media Transformations (frames and audio cut at the edge). */
  MEDIA?: MediaBindingLike;
  /** "local" or "production": picks the adapter behind every port. */
  DEPLOYMENT: string;
  /** Operator token for /admin/v1; when unset the admin API answers 404. */
  ADMIN_TOKEN?: string;
  /** Secret for cursors, signed URLs and the local storage gateway. */
  SIGNING_SECRET?: string;
  /** Mounts the bare benchmark routes (never set in production). */
  BENCH_ROUTES?: string;
  R2_ACCOUNT_ID?: string;
  R2_BUCKET_NAME?: string;
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
}

/** The result of one Media Transformations call: only what the edge media adapter reads. */
export interface MediaResultLike {
  response(): Promise<Response>;
}

/** A media input whose output can be chosen; `MediaTransformationGenerator` fits it. */
export interface MediaOutputLike {
  output(options: MediaTransformationOutputOptions): MediaResultLike;
}

/** A media input that can also be resized first; `MediaTransformer` fits it. */
export interface MediaTransformerLike extends MediaOutputLike {
  transform(options: MediaTransformationInputOptions): MediaOutputLike;
}

/** The part of the Media Transformations binding (`MediaBinding`, beta) the edge media adapter uses. */
export interface MediaBindingLike {
  input(media: ReadableStream<Uint8Array>): MediaTransformerLike;
}
