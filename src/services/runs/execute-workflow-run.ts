import { API_PREFIX } from "../../api-prefix";
import type { FindingRow } from "../../db/repos/findings";
import { rulesOfSets } from "../../db/repos/rulebooks";
import { type AnswerRow, findSnapshots, type RunRow } from "../../db/repos/runs";
import type { ResultState } from "../../domain/answers";
import type { FindingEvidence } from "../../domain/findings";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { EngineAnswer, EngineVideo } from "../../ports/answer-engine/port";
import type { Deps } from "../deps";
import type { WorkflowSnapshot } from "./create-workflow-run";
import { startExecution } from "./execution";
import type { RunOutcome } from "./outcome";
import { findingTyping, ruleQuestion } from "./rule-questions";

/** The cited spans of the answer that lie inside this video; anything else is not evidence. */
function citedIn(answer: EngineAnswer, video: EngineVideo): FindingEvidence[] {
  const item = answer.answer_payload.items.find((i) => i.item_id === video.id);
  const refs = item?.evidence ?? answer.answer_payload.evidence_summary.representative;
  const inside = refs.filter(
    (ref) =>
      ref.video_id === video.id &&
      ref.start_time >= 0 &&
      ref.end_time >= ref.start_time &&
      (video.duration <= 0 || ref.start_time <= video.duration),
  );
  return inside.map((ref) => ({
    id: ref.evidence_id,
    video_id: ref.video_id,
    segment_id: ref.segment_id,
    kind: ref.kind,
    start_time: ref.start_time,
    end_time: ref.end_time,
    text: ref.text,
  }));
}

/** Counts of result states as the run summary says them. */
export function summarize(states: ResultState[], videoCount: number): string {
  const count = (state: ResultState) => states.filter((s) => s === state).length;
  const videos = `${videoCount} video${videoCount === 1 ? "" : "s"}`;
  return `${count("found")} found, ${count("not_found")} not found, ${count("uncertain")} uncertain, ${count("not_checked")} not checked over ${videos}`;
}

/**
 * Executes a workflow run: one verdict per rule × video through the answer-engine port,
 * under the run's playbook and budget, checking for cancellation between verdicts. The
 * findings are written only with the completion (one batch), so a crash at any point
 * leaves either no findings or all of them, and a redelivered run writes the same set.
 */
export async function executeWorkflowRun(
  deps: Deps,
  run: RunRow,
  coordinator: { checkpoint(): Promise<boolean> },
): Promise<RunOutcome | null> {
  const { db } = deps;
  const snapshot = (await findSnapshots(db, run.id)).find((s) => s.kind === "profile")?.content as
    | WorkflowSnapshot
    | undefined;
  if (!snapshot) throw new Error(`run ${run.id} has no workflow snapshot`);
  // The snapshot names an immutable rule set version: its rows are the rules frozen at
  // admission (snapshots made before it was named alone also hold the rules, the same ones).
  const rules =
    (await rulesOfSets(db, [snapshot.rule_set_version_id])).get(snapshot.rule_set_version_id) ?? [];
  const execution = await startExecution(deps, run);
  const { videos } = execution;
  const rows: FindingRow[] = [];
  // The same verdicts as answers (one per rule × video) are what the report renderer reads.
  const answers: AnswerRow[] = [];
  const createdAt = nowIso();
  for (const rule of rules) {
    const question = ruleQuestion(rule);
    for (const video of videos) {
      if (!(await coordinator.checkpoint())) return null;
      const answer = await execution.answer(
        snapshot.playbook,
        question.spec,
        [video],
        question.mode,
      );
      const evidence = citedIn(answer, video);
      // `found` stands only on evidence inside this video; without it the verdict is unproven.
      const unproven = answer.result_state === "found" && evidence.length === 0;
      const state: ResultState = unproven ? "uncertain" : answer.result_state;
      answers.push({
        id: newId("ans"),
        runId: run.id,
        workspaceId: run.workspaceId,
        position: answers.length,
        key: `${rule.id}/${video.id}`,
        type: "verdict",
        resultState: state,
        coverage: answer.coverage,
        eventCount: answer.event_count,
        evidenceCount: answer.evidence_count,
        payload: answer.answer_payload,
        reasonCode: unproven ? "no_cited_evidence" : (answer.reason_code ?? null),
        provenance: { ...answer.provenance, usage: answer.usage },
        createdAt,
      });
      const typing = findingTyping(question.kind, state, rule.severity);
      rows.push({
        id: newId("finding"),
        workspaceId: run.workspaceId,
        runId: run.id,
        workflowId: snapshot.workflow_id,
        videoId: video.id,
        ruleId: rule.id,
        ruleReference: `${snapshot.rulebook_id}/${rule.id}@${rule.version}`,
        title: rule.title,
        description: answer.answer_payload.summary,
        type: typing.type,
        severity: typing.severity,
        status: "open",
        resultState: state,
        summary: answer.answer_payload.summary,
        reasonCode: unproven ? "no_cited_evidence" : (answer.reason_code ?? null),
        evidence,
        metadata: {
          extraction_method: `${answer.provenance.engine}:${answer.provenance.method}`,
          ...(evidence[0]?.kind === "thumbnail" ? { frame_number: 0 } : {}),
          limitations: [
            ...video.limitations,
            ...(answer.budget_exhausted ? ["budget_exhausted"] : []),
          ],
          quality: answer.answer_payload.evidence_summary.precision,
        },
        reviewNote: null,
        reviewedAt: null,
        reviewedBy: null,
        createdAt,
        updatedAt: createdAt,
      });
    }
  }
  const summary = summarize(
    rows.map((row) => row.resultState),
    videos.length,
  );
  // Counts and a link: one entry per rule × video would outgrow a D1 value (2 MB).
  const findings = { count: rows.length, path: `${API_PREFIX}/findings?run_id=${run.id}` };
  return {
    ...execution.outcome(answers, { findings, summary }, createdAt),
    findings: rows,
    summary,
  };
}
