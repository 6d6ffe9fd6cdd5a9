import { type AnswerRow, findRunById, findSnapshots, type RunRow } from "../../db/repos/runs";
import type { AnswerSpec } from "../../domain/answers";
import type { RunAnalysisMessage } from "../../domain/messages";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { pauseAt } from "../../lib/work-pause";
import type { Deps } from "../deps";
import { renderReports } from "../reports/create-reports";
import { executeWorkflowRun } from "./execute-workflow-run";
import { startExecution } from "./execution";
import type { RunOutcome } from "./outcome";

/**
 * Executes an analysis run: answers every spec of the frozen profile version through the
 * answer-engine port within the execution profile's budget, checking for cancellation
 * between answers, then hands the answers to the run's object to complete it. Safe to
 * redeliver: a finished run is not run again.
 */
export async function executeRun(deps: Deps, message: RunAnalysisMessage): Promise<void> {
  const { db } = deps;
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
  const execution = await startExecution(deps, run);
  const rows: AnswerRow[] = [];
  const createdAt = nowIso();
  for (const [position, spec] of profile.answer_specs.entries()) {
    if (!(await coordinator.checkpoint())) return;
    const answer = await execution.answer(profile.instructions, spec, execution.videos);
    if (answer.reason_code === "required_evidence_not_extracted")
      execution.limitations.add("required_evidence_not_extracted");
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
  const answers = rows.map((row) => ({
    answer_id: row.id,
    answer_key: row.key,
    result_state: row.resultState,
  }));
  const outcome = execution.outcome(rows, { answers }, createdAt);
  await coordinator.finish(await withReports(deps, run, outcome));
}

/**
 * A workflow run's section headings: each verdict (`rule/video`) headed by its rule's title and
 * the video it is about, never by ids.
 */
function ruleHeadings(outcome: RunOutcome): Record<string, string> {
  const headings: Record<string, string> = {};
  for (const finding of outcome.findings ?? []) {
    const key = `${finding.ruleId}/${finding.videoId}`;
    const answer = outcome.answers.find((a) => a.key === key);
    const video = answer?.payload.items.find((i) => i.item_id === finding.videoId)?.label;
    headings[key] = video ? `${finding.title} — ${video}` : finding.title;
  }
  return headings;
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
    headings: ruleHeadings(outcome),
  });
  const chosen = reports.find((report) => report.format === "json") ?? reports[0];
  return run.kind === "workflow" && chosen
    ? { ...outcome, reports, reportId: chosen.id }
    : { ...outcome, reports };
}
