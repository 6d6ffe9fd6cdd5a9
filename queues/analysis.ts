import { database } from "../src/db/client";
import { findRunById } from "../src/db/repos/runs";
import type { Env } from "../src/env";
import { asyncError } from "../src/errors/async-codes";
import type { Ports } from "../src/ports";
import { executeRun } from "../src/services/runs/execute-run";
import { RunAnalysisMessageSchema } from "./analysis-messages";
import { consumeEach } from "./consume";

/** The analysis queue: execute runs; failures retry with backoff. */
export function consumeAnalysis(batch: MessageBatch, env: Env, ports: Ports): Promise<void> {
  return consumeEach(batch, RunAnalysisMessageSchema, (message) => executeRun(env, ports, message));
}

/** Dead letters of the analysis queue: the run could not execute after every retry. */
export async function consumeAnalysisDeadLetters(batch: MessageBatch, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = RunAnalysisMessageSchema.safeParse(message.body);
    if (parsed.success) {
      const run = await findRunById(database(env.DB), parsed.data.run_id);
      if (run && run.workspaceId === parsed.data.workspace_id) {
        await env.RUNS.getByName(run.id).fail(asyncError("execution_failed"), ["execution_failed"]);
      }
    }
    message.ack();
  }
}
