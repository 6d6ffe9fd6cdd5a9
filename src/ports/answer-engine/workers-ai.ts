import { type AnswerContext, buildContext, reasonSentence } from "../../answer-engine/context";
import { type AnswerDraft, type AnswerFrame, finishAnswer } from "../../answer-engine/payload";
import { aggregateAny, type Decision, decideVideos } from "../../answer-engine/states";
import type { AnswerRequest, EngineAnswer } from "../../answer-engine/types";
import { TransientModelError } from "../ai/model-calls";
import type { AnswerEngine, BatchAnswers } from "./port";
import { answerInBatches } from "./workers-ai-batch";
import {
  draftFromModel,
  parseModelOutput,
  reportedUsage,
  type SendFacts,
} from "./workers-ai-output";
import {
  ANSWER_MODEL,
  type AnswerAi,
  estimateTokens,
  modelInput,
  promptTokens,
  rankSegments,
  type SentSegment,
} from "./workers-ai-prompt";

/** Engine id of the production adapter; bump the suffix when the model or the rules change. */
export const WORKERS_AI_ANSWER_ENGINE_ID = "workers-ai-answers@3";

/** What the production answer engine needs, passed once when the consumer is built. */
export interface WorkersAiAnswerDependencies {
  ai: AnswerAi;
  /** The same model paced for one tenant (the workspace), so the limiter shares it fairly. */
  aiForTenant?: (tenant: string) => AnswerAi;
  /** Most segments sent in one prompt (default 60). */
  maxSegments?: number;
  /** Largest prompt sent, in estimated tokens (default 16,000; the model's context is larger). */
  maxPromptTokens?: number;
  /** Tokens reserved for, and allowed to, the model's answer (default 1,024). */
  maxOutputTokens?: number;
}

interface Selection {
  sent: SentSegment[];
  input: Ai_Cf_Meta_Llama_3_3_70B_Instruct_Fp8_Fast_Messages;
  promptTokens: number;
  unsent: SendFacts["unsent"];
}

/**
 * Answers with a Workers AI instruction model in JSON mode. The segments are pre-selected by
 * the local retrieval (same probes, media budget and evidence requirement as the local engine)
 * within the token budget; the model's answer is validated, its citations checked against the
 * segments sent, and its state only ever downgraded. See docs/answer-engine.md.
 */
export class WorkersAiAnswerEngine implements AnswerEngine {
  readonly id = WORKERS_AI_ANSWER_ENGINE_ID;
  private readonly maxSegments: number;
  private readonly maxPromptTokens: number;
  private readonly maxOutputTokens: number;

  constructor(private readonly deps: WorkersAiAnswerDependencies) {
    this.maxSegments = deps.maxSegments ?? 60;
    this.maxPromptTokens = deps.maxPromptTokens ?? 16_000;
    this.maxOutputTokens = deps.maxOutputTokens ?? 1_024;
  }

  answer(request: AnswerRequest): Promise<EngineAnswer> {
    return this.answerWith(this.aiFor(request), request);
  }

  /**
   * Several questions over the same videos: as many share one call as the prompt cap allows
   * (docs/answer-engine.md, batching); a question the batch could not answer is asked alone.
   */
  async answerMany(requests: AnswerRequest[]): Promise<BatchAnswers> {
    let calls = 0;
    const first = requests[0];
    if (!first) return { answers: [], modelCalls: 0 };
    const paced = this.aiFor(first);
    const ai: AnswerAi = {
      run: (model, input) => {
        calls++;
        return paced.run(model, input);
      },
    };
    const answers = await answerInBatches(
      {
        maxSegments: this.maxSegments,
        maxPromptTokens: this.maxPromptTokens,
        maxOutputTokens: this.maxOutputTokens,
        ai,
        single: (request) => this.answerWith(ai, request),
        finish: (ctx, draft, input, output, cut) => this.finish(ctx, draft, input, output, cut),
      },
      requests,
    );
    return { answers, modelCalls: calls };
  }

  private aiFor(request: AnswerRequest): AnswerAi {
    return request.tenant && this.deps.aiForTenant
      ? this.deps.aiForTenant(request.tenant)
      : this.deps.ai;
  }

  private async answerWith(ai: AnswerAi, request: AnswerRequest): Promise<EngineAnswer> {
    const ctx = buildContext(request);
    const ranked = rankSegments(ctx);
    if (ranked.length === 0) return this.finish(ctx, noEvidence(ctx), 0, 0, false);

    const selection = this.select(ctx, ranked);
    if (selection.sent.length === 0) {
      const decision: Decision = {
        state: "not_checked",
        reason: selection.unsent === "budget" ? "budget_exhausted" : "context_limit",
      };
      const draft = { ...emptyDraft(reasonSentence(ctx, decision)), decision };
      return this.finish(ctx, draft, 0, 0, selection.unsent === "budget");
    }

    const facts: SendFacts = { sent: selection.sent, unsent: selection.unsent };
    const tokenCut = selection.unsent === "budget";
    let output: unknown;
    try {
      output = await ai.run(ANSWER_MODEL, selection.input);
    } catch (error) {
      // A passing failure that outlasted the call's deadline: the work is retried, never stored.
      if (error instanceof TransientModelError) throw error;
      // The call may have been billed: count the prompt, so the budget never under-counts.
      const message = error instanceof Error ? error.message : String(error);
      return this.finish(
        ctx,
        failed(`The model call failed: ${message.slice(0, 200)}`),
        selection.promptTokens,
        0,
        tokenCut,
      );
    }
    const usage = reportedUsage(output);
    const inputTokens = usage.input ?? selection.promptTokens;
    const outputTokens = usage.output ?? estimateTokens(rawText(output));
    const model = parseModelOutput(output);
    if (model === null) {
      return this.finish(
        ctx,
        failed("The model's answer was not valid JSON of the answer schema."),
        inputTokens,
        outputTokens,
        tokenCut,
      );
    }
    return this.finish(ctx, draftFromModel(ctx, model, facts), inputTokens, outputTokens, tokenCut);
  }

  /** The best-ranked segments that fit both the prompt cap and the token budget. */
  private select(ctx: AnswerContext, ranked: SentSegment[]): Selection {
    const budgetLimit = ctx.request.budget.tokens - this.maxOutputTokens;
    const limit = Math.min(this.maxPromptTokens, budgetLimit);
    const binding: SendFacts["unsent"] = budgetLimit < this.maxPromptTokens ? "budget" : "context";
    let sent: SentSegment[] = [];
    let input = modelInput(ctx, sent, this.maxOutputTokens);
    let tokens = promptTokens(input);
    for (const segment of ranked.slice(0, this.maxSegments)) {
      const nextInput = modelInput(ctx, [...sent, segment], this.maxOutputTokens);
      const next = promptTokens(nextInput);
      if (next > limit) break;
      sent = [...sent, segment];
      input = nextInput;
      tokens = next;
    }
    const unsent =
      sent.length === ranked.length
        ? "none"
        : sent.length < Math.min(ranked.length, this.maxSegments)
          ? binding
          : "context";
    return { sent, input, promptTokens: tokens, unsent };
  }

  /** The answer from a draft, with this engine's provenance and the tokens it spent. */
  finish(
    ctx: AnswerContext,
    draft: AnswerDraft,
    inputTokens: number,
    outputTokens: number,
    tokenBudgetExhausted: boolean,
  ): EngineAnswer {
    const frame: AnswerFrame = {
      runId: ctx.request.run_id,
      answerKey: ctx.request.spec.answer_key,
      inspection: ctx.inspection,
      videoOrder: ctx.videoOrder,
      provenance: {
        engine: WORKERS_AI_ANSWER_ENGINE_ID,
        method: "model-cited",
        model: ANSWER_MODEL,
      },
      tokens: { input_tokens: inputTokens, output_tokens: outputTokens, cached_input_tokens: 0 },
      tokenBudgetExhausted,
      probes: ctx.probes,
    };
    return finishAnswer(frame, draft);
  }
}

function emptyDraft(summary: string): Omit<AnswerDraft, "decision"> {
  return { summary, items: [], contributing: [], eventCount: 0 };
}

/** Nothing to send: the videos decide alone (not_checked when unextracted or unread). */
function noEvidence(ctx: AnswerContext): AnswerDraft {
  const decision = aggregateAny(decideVideos(ctx.inspection.videos, []));
  return { ...emptyDraft(reasonSentence(ctx, decision)), decision };
}

function failed(summary: string): AnswerDraft {
  return { ...emptyDraft(summary), decision: { state: "uncertain", reason: "model_failed" } };
}

function rawText(output: unknown): string {
  if (typeof output === "string") return output;
  const response =
    typeof output === "object" && output !== null && "response" in output
      ? output.response
      : output;
  return typeof response === "string" ? response : JSON.stringify(response ?? "");
}
