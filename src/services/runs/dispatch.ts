import { runBatch } from "../../db/client";
import {
  completeStepStatement,
  emptySpend,
  type RunStepRow,
  runSpend,
} from "../../db/repos/run-steps";
import { renewLeaseStatement } from "../../db/repos/work-leases";
import { nowIso } from "../../lib/clock";
import type { Deps } from "../deps";
import { analysisStep } from "./analysis-step";
import { Execution } from "./execution";
import { type Finisher, finishRun } from "./finish-run";
import type { RunContext } from "./run-context";
import { workflowStep } from "./workflow-step";

/** Keeps a step's claim and its run's lease alive while `work` runs. */
export type Heartbeat = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * Which executor works a claimed step: the finish step finishes the run; an answer step is
 * answered by its run's kind (analysis or workflow). Returns the step's kind, for the lane.
 */
export async function workStep(
  deps: Deps,
  context: RunContext,
  step: RunStepRow,
  coordinator: Finisher,
  heartbeat: Heartbeat,
): Promise<"answer" | "finish"> {
  if (step.kind === "finish") {
    await heartbeat(() => finishRun(deps, context, coordinator));
    await runBatch(deps.db, [completeStepStatement(deps.db, step, emptySpend(), nowIso())]);
    return "finish";
  }
  await heartbeat(() => answerStep(deps, context, step));
  return "answer";
}

/**
 * Answers one step and stores it: its answers (and findings), its spend and its completion in
 * one batch, so a step is either stored whole or not at all, and stored once (a duplicate
 * delivery's rows conflict and its completion finds the step done).
 */
async function answerStep(deps: Deps, context: RunContext, step: RunStepRow): Promise<void> {
  const { db } = deps;
  const execution = new Execution(deps, context.run, await runSpend(db, context.run.id));
  const createdAt = nowIso();
  const writes =
    context.kind === "analysis"
      ? await analysisStep(deps, context, step, execution, createdAt)
      : await workflowStep(deps, context, step, execution, createdAt);
  const lease = { subjectId: context.run.id, kind: "run" as const, activeFrom: nowIso() };
  await runBatch(db, [
    ...writes,
    completeStepStatement(db, step, execution.spent(), createdAt),
    renewLeaseStatement(db, lease),
  ]);
}
