import type { IdempotencyKey } from "../durable-objects/idempotency-key";
import type { LocalVectorIndex } from "../durable-objects/local-vector-index";
import type { RunCoordinator } from "../durable-objects/run-coordinator";
import type { UploadSession } from "../durable-objects/upload-session";
import type { Ports } from "./ports";
import type { MediaBindingLike } from "./ports/media-understanding/edge-media";
import type { AuthContext } from "./services/auth";

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
  /**
   * Seconds without progress after which the crash sweep takes over a video's or run's
   * work (default 900, the longest a queue consumer can run).
   */
  WORK_LEASE_SECONDS?: string;
  /** Test-only: stages where work waits, so the crash test can kill it there. */
  WORK_PAUSE_AT?: string;
  /** Mounts the bare benchmark routes (never set in production). */
  BENCH_ROUTES?: string;
  R2_ACCOUNT_ID?: string;
  R2_BUCKET_NAME?: string;
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
}

/** Variables that middleware places on the Hono context. */
export interface Variables {
  requestId: string;
  auth: AuthContext;
  ports: Ports;
}

/** The Hono environment of the whole app. */
export interface HonoEnv {
  Bindings: Env;
  Variables: Variables;
}
