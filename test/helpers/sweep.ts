import { env } from "cloudflare:workers";
import type { Env } from "../../src/env";
import { createPorts } from "../../src/ports";
import { createDeps } from "../../src/services/deps";
import { runSweep, type SweepReport } from "../../src/services/sweep";
import { leaseMs } from "../../src/services/sweep/lease";

const EMPTY = { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } };

/** A queue that keeps what is sent to it, so a test decides when (and how often) to deliver. */
export class RecordingQueue implements Queue<unknown> {
  readonly sent: unknown[] = [];
  async metrics(): Promise<QueueMetrics> {
    return EMPTY.metadata.metrics;
  }
  async send(message: unknown): Promise<QueueSendResponse> {
    this.sent.push(message);
    return EMPTY;
  }
  async sendBatch(
    messages: Iterable<MessageSendRequest<unknown>>,
  ): Promise<QueueSendBatchResponse> {
    for (const message of messages) this.sent.push(message.body);
    return EMPTY;
  }
}

/** The test env with recording processing, windows, frames, indexing and analysis queues. */
export function recordingEnv() {
  const queues = {
    PROCESSING_QUEUE: new RecordingQueue(),
    WINDOWS_QUEUE: new RecordingQueue(),
    FRAMES_QUEUE: new RecordingQueue(),
    INDEXING_QUEUE: new RecordingQueue(),
    ANALYSIS_QUEUE: new RecordingQueue(),
  };
  const recording: Env = { ...env, ...queues };
  return { env: recording, queues };
}

/** One lease of the test configuration, in milliseconds. */
export const LEASE_MS = leaseMs(env);

/** Runs the sweep as if `leases` leases (plus a second) had passed since `from`. */
export function sweepAfter(target: Env, leases: number, from = Date.now()): Promise<SweepReport> {
  const deps = createDeps(target, createPorts(target));
  return runSweep({ ...deps, clock: { now: () => from + leases * LEASE_MS + 1000 } });
}

/** Sets a row's `updated_at` back, as if nothing had happened to it for a while. */
export async function backdate(table: "videos" | "runs", id: string, ms: number): Promise<void> {
  await env.DB.prepare(`UPDATE ${table} SET updated_at = ? WHERE id = ?`)
    .bind(new Date(Date.now() - ms).toISOString(), id)
    .run();
}

/** Sets an item's lease back too, as if its work had not renewed it for a while. */
export async function backdateLease(id: string, ms: number): Promise<void> {
  await env.DB.prepare("UPDATE work_leases SET active_from = ? WHERE subject_id = ?")
    .bind(new Date(Date.now() - ms).toISOString(), id)
    .run();
}
