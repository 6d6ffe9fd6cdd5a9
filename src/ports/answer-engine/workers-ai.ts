import { draftAnswer } from "../../answer-engine/answer-types";
import { type AnswerContext, buildContext } from "../../answer-engine/context";
import { type AnswerFrame, finishAnswer } from "../../answer-engine/payload";
import type { AnswerRequest, EngineAnswer } from "../../answer-engine/types";
import { TransientModelError, UnknownModelError } from "../ai/model-calls";
import { LOCAL_RULES } from "./local";
import type { AnswerEngine, BatchAnswers } from "./port";
import { answerInBatches } from "./workers-ai-batch";
import {
  type Decided,
  decideFromReview,
  READ_LANGUAGES,
  readsLocale,
  undocumentedFailure,
} from "./workers-ai-decide";
import { parseModelOutput, reportedUsage, type SendFacts } from "./workers-ai-output";
import {
  ANSWER_MODEL,
  type AnswerAi,
  estimateTokens,
  modelInput,
  promptTokens,
  rankSegments,
  type SentSegment,
} from "./workers-ai-prompt";
import { reviewModelAnswer } from "./workers-ai-review";

/** Engine id of the production adapter; bump the suffix when the model or the rules change. */
export const WORKERS_AI_ANSWER_ENGINE_ID = "workers-ai-answers@4";

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
        finish: (ctx, decided, input, output, cut) => this.finish(ctx, decided, input, output, cut),
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
    const ctx = buildContext(request, READ_LANGUAGES);
    const ranked = rankSegments(ctx);
    // A locale whose questions the service cannot read: no call is made.
    if (!readsLocale(request.locale))
      return this.finish(ctx, decideFromReview(ctx, null, NOTHING_SENT), 0, 0, false);
    // Nothing of the accepted kinds was extracted where it was read: nothing could say it in
    // other words either, so an absence over complete evidence is backed.
    if (ranked.length === 0) {
      const absence = ctx.probes.length > 0 ? "backed" : undefined;
      const draft = draftAnswer(absence ? { ...ctx, absence } : ctx);
      return this.finish(ctx, { draft, method: "lexical" }, 0, 0, false);
    }

    const selection = this.select(ctx, ranked);
    const facts: SendFacts = { sent: selection.sent, unsent: selection.unsent };
    const tokenCut = selection.unsent === "budget";
    if (selection.sent.length === 0) {
      const why =
        selection.unsent === "budget"
          ? "The token budget left no room to ask the model."
          : "Not even one segment fitted the prompt, so the model was not asked.";
      return this.finish(ctx, decideFromReview(ctx, null, facts, why), 0, 0, tokenCut);
    }
    let output: unknown;
    try {
      output = await ai.run(ANSWER_MODEL, selection.input);
    } catch (error) {
      // A passing failure that outlasted the call's deadline: the work is retried, never stored.
      if (error instanceof TransientModelError) throw error;
      // Every attempt may have been billed: count each prompt, so the budget never under-counts.
      if (error instanceof UnknownModelError)
        return this.finish(
          ctx,
          undocumentedFailure(ctx, error.text, error.attempts),
          selection.promptTokens * error.attempts,
          0,
          tokenCut,
        );
      const message = error instanceof Error ? error.message : String(error);
      const why = `The model call failed (${message.slice(0, 200)}); this is the service's own reading.`;
      return this.finish(
        ctx,
        decideFromReview(ctx, null, facts, why),
        selection.promptTokens,
        0,
        tokenCut,
      );
    }
    const usage = reportedUsage(output);
    const inputTokens = usage.input ?? selection.promptTokens;
    const outputTokens = usage.output ?? estimateTokens(rawText(output));
    return this.finish(
      ctx,
      decideModelOutput(ctx, output, facts),
      inputTokens,
      outputTokens,
      tokenCut,
    );
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

  /** The answer from a decision, with this engine's provenance and the tokens it spent. */
  finish(
    ctx: AnswerContext,
    decided: Decided,
    inputTokens: number,
    outputTokens: number,
    tokenBudgetExhausted: boolean,
  ): EngineAnswer {
    const { draft, method } = decided;
    const frame: AnswerFrame = {
      runId: ctx.request.run_id,
      answerKey: ctx.request.spec.answer_key,
      inspection: ctx.inspection,
      videoOrder: ctx.videoOrder,
      provenance: {
        engine: WORKERS_AI_ANSWER_ENGINE_ID,
        method,
        model: ANSWER_MODEL,
        rules: `${LOCAL_RULES} model-reviewed languages=${READ_LANGUAGES.join(",")}`,
      },
      tokens: { input_tokens: inputTokens, output_tokens: outputTokens, cached_input_tokens: 0 },
      tokenBudgetExhausted,
      probes: ctx.probes,
    };
    return finishAnswer(frame, draft);
  }
}

/** Nothing was sent to the model. */
const NOTHING_SENT: SendFacts = { sent: [], unsent: "none" };

/** A model's raw output decided: parsed, reviewed, then decided by the service's reading. */
export function decideModelOutput(ctx: AnswerContext, output: unknown, facts: SendFacts): Decided {
  const model = parseModelOutput(output);
  if (model === null)
    return decideFromReview(
      ctx,
      null,
      facts,
      "The model's answer was not valid JSON of the answer schema; this is the service's own reading.",
    );
  return decideFromReview(ctx, reviewModelAnswer(ctx, model, facts), facts);
}

function rawText(output: unknown): string {
  if (typeof output === "string") return output;
  const response =
    typeof output === "object" && output !== null && "response" in output
      ? output.response
      : output;
  return typeof response === "string" ? response : JSON.stringify(response ?? "");
}
