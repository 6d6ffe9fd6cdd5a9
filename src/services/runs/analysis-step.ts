import type { RunStepRow } from "../../db/repos/run-steps";
import type { AnswerRow } from "../../db/repos/runs";
import { idAt } from "../../lib/ids";
import type { Execution, StepRows } from "./execution";
import { type RunContext, rowTime } from "./run-context";

type AnalysisContext = Extract<RunContext, { kind: "analysis" }>;

/**
 * An analysis run's step: its slice of the profile's specs over every source video, made into
 * answers for the caller to store.
 */
export async function analysisStep(
  context: AnalysisContext,
  step: RunStepRow,
  execution: Execution,
  createdAt: string,
): Promise<StepRows> {
  const { run } = context;
  const specs = context.specs.slice(step.first, step.first + step.count);
  const answers = await execution.answerAll(
    context.instructions,
    specs.map((spec) => ({ spec })),
    context.videos,
  );
  const rows = answers.map((answer, i): AnswerRow => {
    const position = step.first + i;
    const spec = specs[i];
    if (!spec) throw new Error(`no spec at ${position}`);
    // Speech found but not transcribed is evidence the answer needed and did not get.
    if (
      answer.reason_code === "required_evidence_not_extracted" ||
      answer.reason_code === "speech_not_transcribed"
    )
      execution.note("required_evidence_not_extracted");
    return {
      id: idAt("ans", rowTime(context, position)),
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
    };
  });
  return { answers: rows, findings: [] };
}
