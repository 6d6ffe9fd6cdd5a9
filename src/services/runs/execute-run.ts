import { API_PREFIX } from "../../api-prefix";
import { type AnswerRow, findRunById, findSnapshots, type RunRow } from "../../db/repos/runs";
import type { AnswerSpec, ResultState } from "../../domain/answers";
import { EXECUTION_PROFILES } from "../../domain/execution-profiles";
import type { RunAnalysisMessage } from "../../domain/messages";
import type { RunUsage } from "../../domain/runs";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { pauseAt } from "../../lib/work-pause";
import type { EngineAnswer } from "../../ports/answer-engine/port";
import type { Deps } from "../deps";
import { renderReports } from "../reports/create-reports";
import { loadEngineVideos } from "./engine-input";
import { executeWorkflowRun } from "./execute-workflow-run";
import type { RunOutcome } from "./outcome";

/** What was left when the budget ran out: the answer the engine never got to give. */
export function unansweredForBudget(runId: string, engine: string): EngineAnswer {
  return {
    result_state: "not_checked",
    coverage: { state: "none", scope: "budget exhausted before this answer" },
    event_count: 0,
    evidence_count: 0,
    answer_payload: {
      summary: "Not checked: the run's processing budget ran out before this answer.",
      items: [],
      evidence_summary: {
        contributing_count: 0,
        drill_down_path: `${API_PREFIX}/runs/${runId}/answers`,
        precision: "unknown",
        representative: [],
      },
    },
    reason_code: "budget_exhausted",
    provenance: { engine, method: "none" },
    usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, media_seconds: 0 },
    budget_exhausted: true,
  };
}

/**
 * The run's overall result: `found` only when every answer is; otherwise the weakest state
 * present (uncertain before not_checked before not_found), so a partial run never reads as a pass.
 */
export function runResultState(states: ResultState[]): ResultState {
  if (states.length > 0 && states.every((state) => state === "found")) return "found";
  for (const state of ["uncertain", "not_checked", "not_found"] as const)
    if (states.includes(state)) return state;
  return "not_checked";
}

/**
 * Executes an analysis run: answers every spec of the frozen profile version through the
 * answer-engine port within the execution profile's budget, checking for cancellation
 * between answers, then hands the answers to the run's object to complete it. Safe to
 * redeliver: a finished run is not run again.
 */
export async function executeRun(deps: Deps, message: RunAnalysisMessage): Promise<void> {
  const { db, ports } = deps;
  const run = await findRunById(db, message.run_id);
  if (!run || run.workspaceId !== message.workspace_id) return;
  const coordinator = deps.objects.runs.getByName(run.id);
  await pauseAt(deps.config, "run:start");
  if (!(await coordinator.begin())) return;
  await pauseAt(deps.config, "run:step");
  if (run.kind === "workflow") {
    const outcome = await executeWorkflowRun(deps, run, coordinator);
    if (outcome) await coordinator.finish(await withReports(deps, run, outcome));
    return;
  }
  const snapshots = await findSnapshots(db, run.id);
  const profile = snapshots.find((snapshot) => snapshot.kind === "profile")?.content as
    | { instructions: string; answer_specs: AnswerSpec[] }
    | undefined;
  if (!profile) throw new Error(`run ${run.id} has no profile snapshot`);
  const videos = await loadEngineVideos(db, run.workspaceId, run.sourceIds);

  const budget = { ...EXECUTION_PROFILES[run.executionProfileRef] };
  const usage: RunUsage = {
    input_tokens: 0,
    output_tokens: 0,
    cached_input_tokens: 0,
    total_tokens: 0,
    media_seconds: 0,
  };
  const limitations = new Set<string>();
  const rows: AnswerRow[] = [];
  const createdAt = nowIso();
  for (const [position, spec] of profile.answer_specs.entries()) {
    if (!(await coordinator.checkpoint())) return;
    const exhausted = budget.media_seconds <= 0 || budget.tokens <= 0;
    const answer = exhausted
      ? unansweredForBudget(run.id, ports.answerEngine.id)
      : await ports.answerEngine.answer({
          run_id: run.id,
          instructions: profile.instructions,
          spec,
          videos,
          locale: run.locale,
          budget: { ...budget },
        });
    const tokens = answer.usage.input_tokens + answer.usage.output_tokens;
    budget.media_seconds -= answer.usage.media_seconds;
    budget.tokens -= tokens;
    usage.input_tokens += answer.usage.input_tokens;
    usage.output_tokens += answer.usage.output_tokens;
    usage.cached_input_tokens += answer.usage.cached_input_tokens;
    usage.total_tokens += tokens;
    usage.media_seconds += answer.usage.media_seconds;
    if (answer.budget_exhausted) limitations.add("budget_exhausted");
    if (answer.reason_code === "required_evidence_not_extracted")
      limitations.add("required_evidence_not_extracted");
    rows.push({
      id: newId("ans"),
      runId: run.id,
      workspaceId: run.workspaceId,
      position,
      key: spec.answer_key,
      type: spec.answer_type,
      resultState: answer.result_state,
      coverage: answer.coverage,
      eventCount: answer.event_count,
      evidenceCount: answer.evidence_count,
      payload: answer.answer_payload,
      reasonCode: answer.reason_code ?? null,
      provenance: { ...answer.provenance, usage: answer.usage },
      createdAt,
    });
  }
  const resultState = runResultState(rows.map((row) => row.resultState));
  const outcome: RunOutcome = {
    answers: rows,
    output: {
      id: newId("snap"),
      runId: run.id,
      kind: "output",
      content: {
        answers: rows.map((row) => ({
          answer_id: row.id,
          answer_key: row.key,
          result_state: row.resultState,
        })),
        result_state: resultState,
        usage,
        limitations: [...limitations].sort(),
      },
      createdAt,
    },
    usage,
    limitations: [...limitations].sort(),
    resultState,
    reasonCode: limitations.has("budget_exhausted") ? "budget_exhausted" : null,
    engine: ports.answerEngine.id,
  };
  await coordinator.finish(await withReports(deps, run, outcome));
}

/**
 * Renders the reports a run asked for (`formats`; a workflow's output modes) from the
 * outcome's answers before the run completes, so the completion commits them in its own
 * batch and `run.completed` can name the workflow run's report. A crash before the commit
 * leaves only unreferenced bytes under the run's prefix; the redelivered run renders anew.
 */
async function withReports(deps: Deps, run: RunRow, outcome: RunOutcome): Promise<RunOutcome> {
  if (run.formats.length === 0) return outcome;
  const ended = { ...run, limitations: outcome.limitations };
  const reports = await renderReports(deps, ended, outcome.answers, {
    formats: run.formats,
    requestId: run.requestId,
  });
  const chosen = reports.find((report) => report.format === "json") ?? reports[0];
  return run.kind === "workflow" && chosen
    ? { ...outcome, reports, reportId: chosen.id }
    : { ...outcome, reports };
}
