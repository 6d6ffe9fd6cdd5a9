import type { Env } from "../src/env";
import type { Ports } from "../src/ports";
import { consumeAnalysis, consumeAnalysisDeadLetters } from "./analysis";
import { consumeIndexing, consumeProcessing, consumeVideoDeadLetters } from "./processing";

/** Dispatches a batch to the consumer of its queue. */
export async function handleQueue(batch: MessageBatch, env: Env, ports: Ports): Promise<void> {
  switch (batch.queue) {
    case "video-processing":
      return consumeProcessing(batch, env, ports);
    case "search-indexing":
      return consumeIndexing(batch, env, ports);
    case "video-processing-dlq":
    case "search-indexing-dlq":
      return consumeVideoDeadLetters(batch, env);
    case "analysis-runs":
      return consumeAnalysis(batch, env, ports);
    case "analysis-runs-dlq":
      return consumeAnalysisDeadLetters(batch, env);
    default:
      throw new Error(`no consumer for queue ${batch.queue}`);
  }
}
