import { runBatch } from "../../db/client";
import { insertFindingsStatements } from "../../db/repos/findings";
import {
  completeStepStatement,
  completeStepsStatement,
  emptySpend,
  type RunStepRow,
  runSpend,
  type StepSpend,
  stepIsPending,
} from "../../db/repos/run-steps";
import { insertAnswersStatements } from "../../db/repos/runs";
import { countStatements } from "../../db/repos/usage";
import { renewLeaseStatement } from "../../db/repos/work-leases";
import { dayOf, modelCounts } from "../../domain/usage";
import { nowIso } from "../../lib/clock";
import type { Deps } from "../deps";
import { analysisStep } from "./analysis-step";
import { Execution, type Spent, type StepRows } from "./execution";
import { type Finisher, finishRun } from "./finish-run";
import type { RunContext } from "./run-context";
import { workflowStep } from "./workflow-step";

/** Keeps a step's claim and its run's lease alive while `work` runs. */
export type Heartbeat = <T>(work: () => Promise<T>) => Promise<T>;

/** Claims a group of the run's other pending answer steps, for a lane that found its budget spent. */
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
 * The rows of one step, answered by its run's kind. A workflow step whose run's budget is
 * spent reads its video without the index (no model reads it; its rows are the same).
 */
async function stepRows(
  context: RunContext,
  step: RunStepRow,
  execution: Execution,
  createdAt: string,
): Promise<StepRows> {
  if (context.kind === "analysis") return analysisStep(context, step, execution, createdAt);
  const id = step.videoId;
  const video =
    id === null
      ? null
      : await (execution.exhausted() ? context.listedVideo(id) : context.video(id));
  return workflowStep(context, step, video, execution, createdAt);
}

/**
 * Answers one step and stores it: its answers (and findings), its spend, its model calls and
 * tokens in the workspace's usage (spent whether or not the run completes) and its completion
 * in one batch, so a step is either stored whole or not at all, and stored and counted once (a
 * duplicate delivery's rows conflict, and its count and completion find the step done). Once
 * the run's budget is spent, the lane claims the run's next pending steps too and stores them
 * all together.
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
  const execution = new Execution(deps, run, spent);
  if (execution.exhausted()) {
    await storeSpentSteps(deps, context, [step, ...(await claimSpent())], spent);
    return;
  }
  const createdAt = nowIso();
  const rows = await stepRows(context, step, execution, createdAt);
  const lease = { subjectId: run.id, kind: "run" as const, activeFrom: nowIso() };
  const counts = modelCounts(execution.modelUse());
  const target = { workspaceId: run.workspaceId };
  await runBatch(db, [
    ...countStatements(db, target, dayOf(createdAt), counts, stepIsPending(step)),
    ...insertAnswersStatements(db, rows.answers),
    ...insertFindingsStatements(db, rows.findings),
    completeStepStatement(db, step, execution.spent(), createdAt),
    renewLeaseStatement(db, lease),
  ]);
}

/**
 * Stores steps of a run whose budget is spent: they ask no model, so each step's rows and
 * spend are made as they would be alone (every answer `not_checked`), and all of them go in
 * one batch of a few statements (their rows as JSON, as a single step's are) rather than a
 * batch of four a step.
 */
async function storeSpentSteps(
  deps: Deps,
  context: RunContext,
  steps: RunStepRow[],
  spent: Spent,
): Promise<void> {
  const { db } = deps;
  const { run } = context;
  const createdAt = nowIso();
  const answers: StepRows["answers"] = [];
  const findings: StepRows["findings"] = [];
  const done: { position: number; spend: StepSpend }[] = [];
  for (const step of steps) {
    const execution = new Execution(deps, run, spent);
    const rows = await stepRows(context, step, execution, createdAt);
    for (const answer of rows.answers) answers.push(answer);
    for (const finding of rows.findings) findings.push(finding);
    done.push({ position: step.position, spend: execution.spent() });
  }
  const lease = { subjectId: run.id, kind: "run" as const, activeFrom: nowIso() };
  const statements = [
    ...insertAnswersStatements(db, answers),
    ...insertFindingsStatements(db, findings),
    completeStepsStatement(db, run.id, done, createdAt),
    renewLeaseStatement(db, lease),
  ];
  await runBatch(db, statements);
}
