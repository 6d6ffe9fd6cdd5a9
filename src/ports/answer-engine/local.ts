import { draftAnswer } from "../../answer-engine/answer-types";
import { buildContext } from "../../answer-engine/context";
import { BORDERLINE_SCORE, STRONG_SCORE } from "../../answer-engine/matching";
import { NEGATION_WINDOW } from "../../answer-engine/negation";
import { finishAnswer } from "../../answer-engine/payload";
import type { AnswerRequest, EngineAnswer } from "../../answer-engine/types";
import { CUE_GAP_SECONDS } from "../../answer-engine/units";
import type { AnswerEngine } from "./port";

/** Engine id of the local rules; bump the suffix whenever a rule or threshold changes. */
export const LOCAL_ANSWER_ENGINE_ID = "local-rules@4";

/** The languages whose negations and instructions the local rules read. */
export const LOCAL_LANGUAGES = ["en"] as const;

/** The rules and thresholds in force, recorded in every answer's provenance. */
export const LOCAL_RULES = `strong>=${STRONG_SCORE} in-one-sentence sentence-form borderline>=${BORDERLINE_SCORE} negation-window=${NEGATION_WINDOW} cue-gap=${CUE_GAP_SECONDS}s stated-quantities lexical-absence-uncertain languages=${LOCAL_LANGUAGES.join(",")}`;

/**
 * Deterministic answers from the video index alone (docs/answer-engine.md): segments are
 * scored with the search's lexical scoring against probes built from the spec, within the
 * media budget, and every answer cites only spans that exist in the index. No I/O, no model,
 * no tokens.
 */
export class LocalAnswerEngine implements AnswerEngine {
  readonly id = LOCAL_ANSWER_ENGINE_ID;

  async answer(request: AnswerRequest): Promise<EngineAnswer> {
    return answerLocally(request);
  }
}

/** The local engine's answer, synchronously (the class only satisfies the async port). */
export function answerLocally(request: AnswerRequest): EngineAnswer {
  const ctx = buildContext(request, LOCAL_LANGUAGES);
  const draft = draftAnswer(ctx);
  return finishAnswer(
    {
      runId: request.run_id,
      answerKey: request.spec.answer_key,
      inspection: ctx.inspection,
      videoOrder: ctx.videoOrder,
      provenance: { engine: LOCAL_ANSWER_ENGINE_ID, method: "lexical", rules: LOCAL_RULES },
      tokens: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0 },
      probes: ctx.probes,
    },
    draft,
  );
}
