import type { Env } from "../src/env";
import type { Ports } from "../src/ports";
import { createDeps } from "../src/services/deps";
import { consumeAnalysis, consumeAnalysisDeadLetters } from "./analysis";
import { consumeIndexing, consumeProcessing, consumeVideoDeadLetters } from "./processing";

/** Dispatches a batch to the consumer of its queue. */
export async function handleQueue(batch: MessageBatch, env: Env, ports: Ports): Promise<void> {
  const deps = createDeps(env, ports);
  switch (batch.queue) {
    case "video-processing":
      return consumeProcessing(batch, deps);
    case "search-indexing":
      return consumeIndexing(batch, deps);
    case "video-processing-dlq":
    case "search-indexing-dlq":
      return consumeVideoDeadLetters(batch, deps);
    case "analysis-runs":
      return consumeAnalysis(batch, deps);
    case "analysis-runs-dlq":
      return consumeAnalysisDeadLetters(batch, deps);
    default:
      throw new Error(`no consumer for queue ${batch.queue}`);
  }
}
