import { type Database, database } from "../db/client";
import type {
  IndexVideoMessage,
  ProcessVideoMessage,
  RunAnalysisMessage,
} from "../domain/messages";
import type { Env } from "../env";
import { signingSecret } from "../lib/secrets";
import type { Ports } from "../ports";

/** The queues work is handed to, typed by the message each carries. */
export interface WorkQueues {
  processing: Queue<ProcessVideoMessage>;
  indexing: Queue<IndexVideoMessage>;
  analysis: Queue<RunAnalysisMessage>;
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
}

/** Builds the dependencies of one entry from its bindings and the isolate's adapters. */
export function createDeps(env: Env, ports: Ports): Deps {
  return {
    db: database(env.DB),
    bucket: env.MEDIA_BUCKET,
    queues: {
      processing: env.PROCESSING_QUEUE,
      indexing: env.INDEXING_QUEUE,
      analysis: env.ANALYSIS_QUEUE,
    },
    ports,
    secrets: { signing: () => signingSecret(env) },
    clock: { now: () => Date.now() },
  };
}
