import type { EngineAnswer, EngineVideo } from "../../answer-engine/types";
import type { FindingRow } from "../../db/repos/findings";
import type { RunStepRow } from "../../db/repos/run-steps";
import type { AnswerRow } from "../../db/repos/runs";
import type { ResultState } from "../../domain/answers";
import type { FindingEvidence } from "../../domain/findings";
import { idAt } from "../../lib/ids";
import type { Execution, StepRows } from "./execution";
import { findingTyping, ruleQuestion } from "./rule-questions";
import { type RunContext, rowTime } from "./run-context";

type WorkflowContext = Extract<RunContext, { kind: "workflow" }>;

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

/**
 * A workflow run's step: its slice of the rules, each a verdict over the step's one video,
 * made into an answer (what reports read) and a finding, for the caller to store. A video gone
 * since admission (null) has no verdicts.
 */
export async function workflowStep(
  context: WorkflowContext,
  step: RunStepRow,
  video: EngineVideo | null,
  execution: Execution,
  createdAt: string,
): Promise<StepRows> {
  const { run, snapshot } = context;
  if (!video) return { answers: [], findings: [] };
  const videoIndex = (await context.videoIds()).indexOf(video.id);
  const rules = context.rules.slice(step.first, step.first + step.count);
  const questions = rules.map((rule) => ruleQuestion(rule, run.locale));
  const verdicts = await execution.answerAll(snapshot.playbook, questions, [video]);
  const answers: AnswerRow[] = [];
  const findings: FindingRow[] = [];
  const videoCount = run.sourceIds.length;
  for (const [i, answer] of verdicts.entries()) {
    const rule = rules[i];
    const question = questions[i];
    if (!rule || !question) continue;
    // Rule-major, as the verdicts were always listed: every video of rule 1, then rule 2...
    const position = (step.first + i) * videoCount + Math.max(0, videoIndex);
    const evidence = citedIn(answer, video);
    // `found` stands only on evidence inside this video; without it the verdict is unproven.
    const unproven = answer.result_state === "found" && evidence.length === 0;
    const state: ResultState = unproven ? "uncertain" : answer.result_state;
    const reasonCode = unproven ? "no_cited_evidence" : (answer.reason_code ?? null);
    answers.push({
      id: idAt("ans", rowTime(context, position)),
      runId: run.id,
      workspaceId: run.workspaceId,
      position,
      key: `${rule.id}/${video.id}`,
      type: "verdict",
      resultState: state,
      coverage: answer.coverage,
      eventCount: answer.event_count,
      evidenceCount: answer.evidence_count,
      payload: answer.answer_payload,
      reasonCode,
      provenance: { ...answer.provenance, usage: answer.usage },
      createdAt,
    });
    const typing = findingTyping(question.kind, state, rule.severity);
    findings.push({
      id: idAt("finding", rowTime(context, position)),
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
      reasonCode,
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
  return { answers, findings };
}
