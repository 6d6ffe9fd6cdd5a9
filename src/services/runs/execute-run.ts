import { hasSteps, planStepsStatement } from "../../db/repos/run-steps";
import { findRunById, type RunRow } from "../../db/repos/runs";
import { nowIso } from "../../lib/clock";
import type { RunAnalysisMessage } from "../../lib/queue-messages";
import { pauseAt } from "../../lib/work-pause";
import type { Deps } from "../deps";
import type { RunContext } from "./run-context";
import { Invocation, lanesOf, workLane } from "./run-lanes";

/**
 * Questions per step: one model call judges this many rules over one video's evidence (a
 * workflow run), or this many specs over the run's videos (an analysis run), where the
 * engine's context allows; the engine splits a step that does not fit.
 */
export const QUESTIONS_PER_STEP = { analysis: 5, workflow: 8 } as const;

/**
 * Executes a run message: starts the run and works as one of its lanes. The first delivery of
 * a run plans its steps; for a run of several lanes it then sends them all and ends. Safe to
 * redeliver: a finished run is not run again, planned steps are kept, and a done step is
 * never answered again.
 */
export async function executeRun(
  deps: Deps,
  message: RunAnalysisMessage,
  invocation: Invocation = new Invocation(deps),
): Promise<void> {
  const run = await findRunById(deps.db, message.run_id);
  if (!run || run.workspaceId !== message.workspace_id) return;
  const coordinator = deps.objects.runs.getByName(run.id);
  await pauseAt(deps.config, "run:start");
  if (!(await coordinator.begin())) return;
  const context = await invocation.context(deps, run);
  if (lanesOf(run) > 1 && (await planSteps(deps, context))) {
    // The planner only opens the lanes: locally one batch per queue runs at a time, so lanes
    // sent now would wait for this invocation to end; a new batch starts them together.
    await openLanes(deps, run, lanesOf(run));
    return;
  }
  if (lanesOf(run) === 1) await planSteps(deps, context);
  await pauseAt(deps.config, "run:step");
  await workLane(deps, context, coordinator, invocation);
}

/** Records the run's steps unless they are; true when this call planned them. */
async function planSteps(deps: Pick<Deps, "db">, context: RunContext): Promise<boolean> {
  const { db } = deps;
  const { run } = context;
  if (await hasSteps(db, run.id)) return false;
  const plan =
    context.kind === "analysis"
      ? { questions: context.specs.length, perStep: QUESTIONS_PER_STEP.analysis, videoIds: null }
      : {
          questions: context.rules.length,
          perStep: QUESTIONS_PER_STEP.workflow,
          videoIds: await context.videoIds(),
        };
  await planStepsStatement(db, { runId: run.id, now: nowIso(), ...plan });
  return true;
}

/** Sends a run's other lanes (the sweep sends all of them when it takes a run over). */
export async function openLanes(
  deps: Pick<Deps, "queues">,
  run: Pick<RunRow, "id" | "workspaceId" | "requestId">,
  lanes: number,
): Promise<void> {
  if (lanes <= 0) return;
  const body: RunAnalysisMessage = {
    type: "run-analysis",
    run_id: run.id,
    workspace_id: run.workspaceId,
    request_id: run.requestId,
  };
  await deps.queues.analysis.sendBatch(Array.from({ length: lanes }, () => ({ body })));
}
