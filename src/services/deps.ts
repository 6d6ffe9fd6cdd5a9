import { type Database, database } from "../db/client";
import type { Env } from "../env";
import { createLogger, type Logger } from "../lib/log";
import type {
  AssembleVideoMessage,
  DeliverWebhookMessage,
  EraseVideoMessage,
  EraseWorkspaceMessage,
  IndexVideoMessage,
  ProcessVideoMessage,
  RunAnalysisMessage,
  UnderstandWindowMessage,
} from "../lib/queue-messages";
import { signingSecret } from "../lib/secrets";
import type { Ports } from "../ports";

/** The queues work is handed to, typed by the message each carries. */
export interface WorkQueues {
  processing: Queue<
    ProcessVideoMessage | AssembleVideoMessage | EraseVideoMessage | EraseWorkspaceMessage
  >;
  /** Audio windows (and any window sent before frames had a queue of their own). */
  windows: Queue<UnderstandWindowMessage>;
  frames: Queue<UnderstandWindowMessage>;
  indexing: Queue<IndexVideoMessage>;
  analysis: Queue<RunAnalysisMessage>;
  webhooks: Queue<DeliverWebhookMessage>;
  /** The slow lane: attempts to endpoints that outlasted the fast lane's timeout. */
  webhooksSlow: Queue<DeliverWebhookMessage>;
}

/**
 * Everything a service reaches, built once at the entry (per request for routes, per batch
 * for queue consumers, per instance for Durable Objects) and passed down as the first
 * argument. It lives in the services layer so routes, queues and objects can all name it.
 */
export interface Deps {
  db: Database;
  /** The media bucket, read and written directly (sources, thumbnails, reports). */
  bucket: R2Bucket;
  queues: WorkQueues;
  ports: Ports;
  secrets: {
    /**
     * The signing secret, read when first needed: it throws when unconfigured, and routes
     * that never sign anything must keep answering without it.
     */
    signing(): string;
  };
  clock: { now(): number };
  /**
   * Where log lines go: per request, a logger carrying its `request_id`; per queue message, one
   * carrying the request id the message names (`withRequest`).
   */
  log: Logger;
  /** The Durable Object namespaces that services call: runs and upload sessions. */
  objects: { runs: Env["RUNS"]; uploadSessions: Env["UPLOAD_SESSIONS"] };
  /** Plain configuration: the deployment, test-only pause points, the sweep's lease, webhooks. */
  config: Pick<
    Env,
    | "DEPLOYMENT"
    | "SIMULATED"
    | "WORK_PAUSE_AT"
    | "WORK_LEASE_SECONDS"
    | "RUN_INVOCATION_SECONDS"
    | "WEBHOOK_ALLOW_LOOPBACK_HTTP"
    | "WEBHOOK_RETRY_SCHEDULE"
    | "WEBHOOK_RETRY_JITTER"
  >;
}

/**
 * Builds the dependencies of one entry from its bindings and the isolate's adapters; `log`
 * carries the request id of a request's entry.
 */
export function createDeps(env: Env, ports: Ports, log: Logger = createLogger()): Deps {
  return {
    db: database(env.DB),
    bucket: env.MEDIA_BUCKET,
    queues: {
      processing: env.PROCESSING_QUEUE,
      windows: env.WINDOWS_QUEUE,
      frames: env.FRAMES_QUEUE,
      indexing: env.INDEXING_QUEUE,
      analysis: env.ANALYSIS_QUEUE,
      webhooks: env.WEBHOOK_QUEUE,
      webhooksSlow: env.WEBHOOK_SLOW_QUEUE,
    },
    ports,
    secrets: { signing: () => signingSecret(env) },
    clock: { now: () => Date.now() },
    log,
    objects: { runs: env.RUNS, uploadSessions: env.UPLOAD_SESSIONS },
    config: {
      DEPLOYMENT: env.DEPLOYMENT,
      SIMULATED: env.SIMULATED,
      WORK_PAUSE_AT: env.WORK_PAUSE_AT,
      WORK_LEASE_SECONDS: env.WORK_LEASE_SECONDS,
      RUN_INVOCATION_SECONDS: env.RUN_INVOCATION_SECONDS,
      WEBHOOK_ALLOW_LOOPBACK_HTTP: env.WEBHOOK_ALLOW_LOOPBACK_HTTP,
      WEBHOOK_RETRY_SCHEDULE: env.WEBHOOK_RETRY_SCHEDULE,
      WEBHOOK_RETRY_JITTER: env.WEBHOOK_RETRY_JITTER,
    },
  };
}

/** The same dependencies, logging for the work of the request `requestId` (null: none). */
export function withRequest<D extends Pick<Deps, "log">>(
  deps: D,
  requestId: string | null | undefined,
): D {
  return { ...deps, log: deps.log.with({ request_id: requestId }) };
}
