import type { AnswerType } from "../../domain/answers";
import type { AnswerContext } from "../context";
import type { AnswerDraft } from "../payload";
import { answerComparison } from "./comparison";
import { answerEnumeration } from "./enumeration";
import { answerMeasurement } from "./measurement";
import { answerRetrieval } from "./retrieval";
import { videoLabel } from "./shared";
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

/** A measurement or comparison in a language whose quantities the engine does not read. */
function quantitiesUnread(ctx: AnswerContext): AnswerDraft {
  const decision = { state: "not_checked" as const, reason: "language_unsupported" as const };
  return {
    decision,
    summary: `Quantities and times are read in English only; this run's locale is ${ctx.request.locale}, so no value was judged.`,
    items: ctx.inspection.videos.map((v) => ({
      item_id: v.video.id,
      label: videoLabel(v),
      result_state: "not_checked",
      attributes: [],
      evidence: [],
    })),
    contributing: [],
    eventCount: 0,
  };
}

/** The draft of an answer of the spec's type, from the context's reading of the evidence. */
export function draftAnswer(ctx: AnswerContext): AnswerDraft {
  const type = ctx.request.spec.answer_type;
  if (!ctx.reading.readsQuantities && (type === "measurement" || type === "comparison"))
    return quantitiesUnread(ctx);
  return BY_TYPE[type](ctx);
}
