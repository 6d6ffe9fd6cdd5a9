import { findRunById } from "../db/repos/runs";
import { asyncError } from "../errors/async-codes";
import { RunAnalysisMessageSchema } from "../lib/queue-messages";
import { TransientModelError } from "../ports/ai/model-calls";
import type { Deps } from "../services/deps";
import { executeRun } from "../services/runs/execute-run";
import { Invocation } from "../services/runs/run-lanes";
import { batchRequestIds, consumeSideBySide, retryDelaySeconds } from "./consume";

/**
 * Lanes of one batch worked at once (a batch holds at most 100): they wait on models, paced by
 * the limiter, and the invocation's step allowance bounds what they do together.
 */
const LANES_SIDE_BY_SIDE = 100;

/**
 * The analysis queue: each message is a lane of a run, working its steps until the
 * invocation's budget (shared by the batch) is spent; the lanes that go on are sent together
 * at the end. Failures retry with backoff.
 */
export async function consumeAnalysis(batch: MessageBatch, deps: Deps): Promise<void> {
  const invocation = new Invocation(deps, true);
  const started = deps.clock.now();
  await consumeSideBySide(
    batch,
    RunAnalysisMessageSchema,
    deps,
    (deps, message) => executeRun(deps, message, invocation),
    LANES_SIDE_BY_SIDE,
    retryDelay,
  );
  // A crash before this line loses those lanes: the run's lease runs out and the sweep
  // re-sends them.
  await invocation.sendHandedOn(deps);
  // How long invocations run, against their budget: the operator's (and the bench's) view. A
  // batch holds lanes of several runs, so the line names every request they belong to.
  deps.log.info({
    queue: batch.queue,
    request_ids: batchRequestIds(batch),
    lanes: batch.messages.length,
    steps: invocation.steps,
    longest_answer_step_ms: invocation.longestStepMs.answer,
    longest_finish_step_ms: invocation.longestStepMs.finish,
    invocation_ms: deps.clock.now() - started,
    ended_at: new Date(deps.clock.now()).toISOString(),
  });
}

/**
 * A step whose model call still failed at the call's deadline has backed off for that long
 * already: its lane is retried at once. Any other failure backs off as every queue's does.
 */
function retryDelay(error: unknown, attempts: number): number {
  return error instanceof TransientModelError ? 0 : retryDelaySeconds(attempts);
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
