import type { BatchItem } from "drizzle-orm/batch";
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

/** Claims a few more answer steps of the run, for a lane that found its budget spent. */
export type ClaimSpentSteps = () => Promise<RunStepRow[]>;

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
  claimSpent: ClaimSpentSteps,
): Promise<"answer" | "finish"> {
  if (step.kind === "finish") {
    await heartbeat(() => finishRun(deps, context, coordinator));
    await runBatch(deps.db, [completeStepStatement(deps.db, step, emptySpend(), nowIso())]);
    return "finish";
  }
  await heartbeat(() => answerStep(deps, context, step, claimSpent));
  return "answer";
}

/**
 * Answers one step and stores it: its answers (and findings), its spend and its completion in
 * one batch, so a step is either stored whole or not at all, and stored once (a duplicate
 * delivery's rows conflict and its completion finds the step done). Once the run's budget is
 * spent, the lane claims the next few steps too and stores them in the same batch.
 */
async function answerStep(
  deps: Deps,
  context: RunContext,
  step: RunStepRow,
  claimSpent: ClaimSpentSteps,
): Promise<void> {
  const { db } = deps;
  const { run } = context;
  const spent = await runSpend(db, run.id);
  const first = new Execution(deps, run, spent);
  const more = first.exhausted() ? await claimSpent() : [];
  const createdAt = nowIso();
  const statements: BatchItem<"sqlite">[] = [];
  for (const [i, each] of [step, ...more].entries()) {
    const execution = i === 0 ? first : new Execution(deps, run, spent);
    const writes =
      context.kind === "analysis"
        ? await analysisStep(deps, context, each, execution, createdAt)
        : await workflowStep(deps, context, each, execution, createdAt);
    statements.push(...writes, completeStepStatement(db, each, execution.spent(), createdAt));
  }
  const lease = { subjectId: run.id, kind: "run" as const, activeFrom: nowIso() };
  await runBatch(db, [...statements, renewLeaseStatement(db, lease)]);
}
