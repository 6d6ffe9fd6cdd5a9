import type { QuestionMode } from "../../answer-engine/language-reading";
import type { AnswerRequest, EngineAnswer, EngineVideo } from "../../answer-engine/types";
import { API_PREFIX } from "../../api-prefix";
import type { FindingRow } from "../../db/repos/findings";
import { emptySpend, type StepSpend } from "../../db/repos/run-steps";
import type { AnswerRow, RunRow } from "../../db/repos/runs";
import type { AnswerSpec } from "../../domain/answers";
import { EXECUTION_PROFILES } from "../../domain/execution-profiles";
import type { ModelUse } from "../../domain/usage";
import type { Deps } from "../deps";

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

/** One question: its spec, and its mode when the caller decides it (a workflow's rules). */
export interface Question {
  spec: AnswerSpec;
  mode?: QuestionMode | undefined;
}

/** The rows a step makes: its answers and, for a workflow run, their findings. */
export interface StepRows {
  answers: AnswerRow[];
  findings: FindingRow[];
}

/** What the run's earlier steps already spent of its budget. */
export type Spent = Pick<StepSpend, "inputTokens" | "outputTokens" | "mediaSeconds">;

/**
 * One step's questions to the answer engine, under what is left of the run's execution-profile
 * budget after its earlier steps: each answer is charged to the budget and the step's spend,
 * and once the budget is spent the rest are `not_checked` without asking the engine. Analysis
 * and workflow runs share it.
 */
export class Execution {
  private readonly spend: StepSpend = emptySpend();
  private readonly limitations = new Set<string>();
  /** The model the engine's answers name (its provenance); null while none has. */
  private model: string | null = null;
  private readonly budget: { media_seconds: number; tokens: number };

  constructor(
    private readonly deps: Pick<Deps, "ports">,
    readonly run: RunRow,
    spent: Spent,
  ) {
    const profile = EXECUTION_PROFILES[run.executionProfileRef];
    this.budget = {
      media_seconds: profile.media_seconds - spent.mediaSeconds,
      tokens: profile.tokens - spent.inputTokens - spent.outputTokens,
    };
  }

  /** Whether the run's budget is spent: its answers are `not_checked`, no model is asked. */
  exhausted(): boolean {
    return this.budget.media_seconds <= 0 || this.budget.tokens <= 0;
  }

  private request(instructions: string, question: Question, videos: EngineVideo[]): AnswerRequest {
    return {
      run_id: this.run.id,
      instructions,
      spec: question.spec,
      videos,
      locale: this.run.locale,
      budget: { ...this.budget },
      tenant: this.run.workspaceId,
      mode: question.mode,
    };
  }

  /** Asks one question about these videos within what is left of the budget. */
  async answer(instructions: string, question: Question, videos: EngineVideo[]) {
    const { answerEngine } = this.deps.ports;
    const answer = this.exhausted()
      ? unansweredForBudget(this.run.id, answerEngine.id)
      : await answerEngine.answer(this.request(instructions, question, videos));
    this.charge(answer);
    return answer;
  }

  /**
   * Asks several questions about the same videos: in as few model calls as the engine's
   * context allows when it batches, one after another otherwise (each with what the earlier
   * ones left of the budget). A batch is charged after its call, so it may overrun the budget
   * by at most that call.
   */
  async answerAll(
    instructions: string,
    questions: Question[],
    videos: EngineVideo[],
  ): Promise<EngineAnswer[]> {
    const { answerEngine } = this.deps.ports;
    if (!answerEngine.answerMany || this.exhausted()) {
      const answers: EngineAnswer[] = [];
      for (const question of questions)
        answers.push(await this.answer(instructions, question, videos));
      return answers;
    }
    const batch = await answerEngine.answerMany(
      questions.map((question) => this.request(instructions, question, videos)),
    );
    this.spend.modelCalls += batch.modelCalls;
    for (const answer of batch.answers) this.charge(answer);
    return batch.answers;
  }

  /** Records a limitation of the run that the step met (besides the budget's). */
  note(limitation: string): void {
    this.limitations.add(limitation);
  }

  /** What this step spent and met, stored with it. */
  spent(): StepSpend {
    return { ...this.spend, limitations: [...this.limitations].sort() };
  }

  /** This step's model calls and tokens, under the model its answers name (none: empty). */
  modelUse(): ModelUse[] {
    if (this.model === null) return [];
    const { modelCalls, inputTokens, outputTokens } = this.spend;
    return [
      {
        model: this.model,
        calls: modelCalls,
        input_tokens: inputTokens,
        output_tokens: outputTokens,
        audio_seconds: 0,
      },
    ];
  }

  private charge(answer: EngineAnswer): void {
    const tokens = answer.usage.input_tokens + answer.usage.output_tokens;
    this.budget.media_seconds -= answer.usage.media_seconds;
    this.budget.tokens -= tokens;
    this.spend.inputTokens += answer.usage.input_tokens;
    this.spend.outputTokens += answer.usage.output_tokens;
    this.spend.cachedInputTokens += answer.usage.cached_input_tokens;
    this.spend.mediaSeconds += answer.usage.media_seconds;
    this.model ??= answer.provenance.model ?? null;
    if (answer.budget_exhausted) this.limitations.add("budget_exhausted");
  }
}
