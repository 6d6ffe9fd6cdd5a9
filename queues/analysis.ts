import { database } from "../src/db/client";
import { findRunById } from "../src/db/repos/runs";
import type { Env } from "../src/env";
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
        await env.RUNS.getByName(run.id).fail(
          {
            code: "execution_failed",
            title: "The run could not be executed",
            detail:
              "Executing the run failed after several attempts; no trustworthy result exists.",
            next_action: "Start the run again; if it fails again, contact support with the run id.",
          },
          ["execution_failed"],
        );
      }
    }
    message.ack();
  }
}
