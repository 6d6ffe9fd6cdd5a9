import { findRunById } from "../src/db/repos/runs";
import { asyncError } from "../src/errors/async-codes";
import type { Deps } from "../src/services/deps";
import { executeRun } from "../src/services/runs/execute-run";
import { RunAnalysisMessageSchema } from "./analysis-messages";
import { consumeEach } from "./consume";

/** The analysis queue: execute runs; failures retry with backoff. */
export function consumeAnalysis(batch: MessageBatch, deps: Deps): Promise<void> {
  return consumeEach(batch, RunAnalysisMessageSchema, (message) => executeRun(deps, message));
}

/** Dead letters of the analysis queue: the run could not execute after every retry. */
export async function consumeAnalysisDeadLetters(batch: MessageBatch, deps: Deps): Promise<void> {
  for (const message of batch.messages) {
    const parsed = RunAnalysisMessageSchema.safeParse(message.body);
    if (parsed.success) {
      const run = await findRunById(deps.db, parsed.data.run_id);
      if (run && run.workspaceId === parsed.data.workspace_id) {
        await deps.objects.runs
          .getByName(run.id)
          .fail(asyncError("execution_failed"), ["execution_failed"]);
      }
    }
    message.ack();
  }
}
