import { API_PREFIX } from "../../api-prefix";
import type { AnswerRow, RunRow } from "../../db/repos/runs";
import type { AnswerSpec } from "../../domain/answers";
import { EXECUTION_PROFILES } from "../../domain/execution-profiles";
import { emptyUsage, type RunUsage, runResultState } from "../../domain/runs";
import { newId } from "../../lib/ids";
import type { EngineAnswer, EngineVideo } from "../../ports/answer-engine/port";
import type { QuestionMode } from "../../ports/answer-engine/statement-mode";
import type { Deps } from "../deps";
import { loadEngineVideos } from "./engine-input";
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
 * One run's questions to the answer engine, under the run's execution-profile budget: each
 * answer is charged to the budget and the usage, and once the budget is spent the rest are
 * `not_checked` without asking the engine. Analysis and workflow runs share it.
 */
export class Execution {
  readonly usage: RunUsage = emptyUsage();
  readonly limitations = new Set<string>();
  private readonly budget: { media_seconds: number; tokens: number };

  constructor(
    private readonly deps: Pick<Deps, "ports">,
    readonly run: RunRow,
    readonly videos: EngineVideo[],
  ) {
    this.budget = { ...EXECUTION_PROFILES[run.executionProfileRef] };
  }

  /** Asks one question about these videos within what is left of the budget. */
  async answer(instructions: string, spec: AnswerSpec, videos: EngineVideo[], mode?: QuestionMode) {
    const { answerEngine } = this.deps.ports;
    const exhausted = this.budget.media_seconds <= 0 || this.budget.tokens <= 0;
    const answer = exhausted
      ? unansweredForBudget(this.run.id, answerEngine.id)
      : await answerEngine.answer({
          run_id: this.run.id,
          instructions,
          spec,
          videos,
          locale: this.run.locale,
          budget: { ...this.budget },
          mode,
        });
    const tokens = answer.usage.input_tokens + answer.usage.output_tokens;
    this.budget.media_seconds -= answer.usage.media_seconds;
    this.budget.tokens -= tokens;
    this.usage.input_tokens += answer.usage.input_tokens;
    this.usage.output_tokens += answer.usage.output_tokens;
    this.usage.cached_input_tokens += answer.usage.cached_input_tokens;
    this.usage.total_tokens += tokens;
    this.usage.media_seconds += answer.usage.media_seconds;
    if (answer.budget_exhausted) this.limitations.add("budget_exhausted");
    return answer;
  }

  /**
   * What the run produced, for the coordinator to commit: the answers, an output snapshot
   * (`content` plus the result state, usage and limitations) and the run's columns.
   */
  outcome(answers: AnswerRow[], content: Record<string, unknown>, createdAt: string): RunOutcome {
    const resultState = runResultState(answers.map((answer) => answer.resultState));
    const limitations = [...this.limitations].sort();
    return {
      answers,
      output: {
        id: newId("snap"),
        runId: this.run.id,
        kind: "output",
        content: { ...content, result_state: resultState, usage: this.usage, limitations },
        createdAt,
      },
      usage: this.usage,
      limitations,
      resultState,
      reasonCode: this.limitations.has("budget_exhausted") ? "budget_exhausted" : null,
      engine: this.deps.ports.answerEngine.id,
    };
  }
}

/** Loads the run's sources as the engine reads them and opens its budget. */
export async function startExecution(
  deps: Pick<Deps, "db" | "ports">,
  run: RunRow,
): Promise<Execution> {
  return new Execution(deps, run, await loadEngineVideos(deps.db, run.workspaceId, run.sourceIds));
}
