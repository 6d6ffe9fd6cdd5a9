import type { AnswerType } from "../../domain/answers";
import type { AnswerContext } from "../context";
import type { AnswerDraft } from "../payload";
import { answerComparison } from "./comparison";
import { answerEnumeration } from "./enumeration";
import { answerMeasurement } from "./measurement";
import { answerRetrieval } from "./retrieval";
import { answerSynthesis } from "./synthesis";
import { answerTimeline } from "./timeline";
import { answerVerdict } from "./verdict";

const BY_TYPE: Record<AnswerType, (ctx: AnswerContext) => AnswerDraft> = {
  verdict: answerVerdict,
  measurement: answerMeasurement,
  enumeration: answerEnumeration,
  timeline: answerTimeline,
  comparison: answerComparison,
  retrieval: answerRetrieval,
  synthesis: answerSynthesis,
};

/** The draft of an answer of the spec's type, from the context's reading of the evidence. */
export function draftAnswer(ctx: AnswerContext): AnswerDraft {
  return BY_TYPE[ctx.request.spec.answer_type](ctx);
}
