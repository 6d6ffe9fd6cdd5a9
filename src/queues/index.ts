import type { Env } from "../env";
import type { Ports } from "../ports";
import { createDeps, type Deps } from "../services/deps";
import { DISPATCH_BATCH, dispatchPendingEvents } from "../services/webhooks/enqueue-attempts";
import { fetchTransport } from "../services/webhooks/transport";
import { consumeAnalysis, consumeAnalysisDeadLetters } from "./analysis";
import { batchRequestIds } from "./consume";
import {
  consumeIndexing,
  consumeProcessing,
  consumeVideoDeadLetters,
  consumeWindowDeadLetters,
  consumeWindows,
} from "./processing";
import { consumeWebhooks } from "./webhooks";

/** Queues whose consumers write outbox events: after a batch, they are fanned out at once. */
const EVENT_SOURCES = new Set([
  "video-processing",
  "media-windows-dlq",
  "media-frames-dlq",
  "search-indexing",
  "video-processing-dlq",
  "search-indexing-dlq",
  "analysis-runs",
  "analysis-runs-dlq",
]);

/** Dispatches a batch to the consumer of its queue. */
export async function handleQueue(batch: MessageBatch, env: Env, ports: Ports): Promise<void> {
  const deps = createDeps(env, ports);
  await consume(batch, deps);
  if (EVENT_SOURCES.has(batch.queue)) {
    // The sweep would fan the events out too, a minute later; this keeps webhooks prompt. Only
    // the batch's own workspaces: a consumer fans out the events it wrote, not every tenant's.
    await dispatchPendingEvents(deps, DISPATCH_BATCH, batchWorkspaces(batch)).catch(
      (error: unknown) =>
        deps.log.error({
          dispatch: batch.queue,
          request_ids: batchRequestIds(batch),
          error: String(error),
        }),
    );
  }
}

/** The workspaces a batch's messages name. */
function batchWorkspaces(batch: MessageBatch): string[] {
  const ids = new Set<string>();
  for (const message of batch.messages) {
    const body: unknown = message.body;
    if (typeof body === "object" && body !== null && "workspace_id" in body) {
      if (typeof body.workspace_id === "string") ids.add(body.workspace_id);
    }
  }
  return [...ids];
}

function consume(batch: MessageBatch, deps: Deps): Promise<void> {
  switch (batch.queue) {
    case "video-processing":
      return consumeProcessing(batch, deps);
    case "media-windows":
    case "media-frames":
      return consumeWindows(batch, deps);
    case "media-windows-dlq":
    case "media-frames-dlq":
      return consumeWindowDeadLetters(batch, deps);
    case "search-indexing":
      return consumeIndexing(batch, deps);
    case "video-processing-dlq":
    case "search-indexing-dlq":
      return consumeVideoDeadLetters(batch, deps);
    case "analysis-runs":
      return consumeAnalysis(batch, deps);
    case "analysis-runs-dlq":
      return consumeAnalysisDeadLetters(batch, deps);
    case "webhook-deliveries":
      return consumeWebhooks(batch, deps, fetchTransport, "fast");
    case "webhook-slow":
      return consumeWebhooks(batch, deps, fetchTransport, "slow");
    default:
      throw new Error(`no consumer for queue ${batch.queue}`);
  }
}
