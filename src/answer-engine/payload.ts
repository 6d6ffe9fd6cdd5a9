import { API_PREFIX } from "../api-prefix";
import type { AnswerItem, AnswerUsage } from "../domain/answers";
import type { EvidenceRef, EvidenceSummary } from "../domain/evidence";
import { lexicalScore } from "../lib/text/search-scoring";
import { compareRefs, distinctRefs } from "./evidence-ids";
import type { Inspection } from "./inspection";
import { isComplete } from "./inspection";
import { EXACT_SCORE } from "./matching";
import type { QuestionProbe } from "./question-probes";
import type { Decision } from "./states";
import type { EngineAnswer } from "./types";

/** What an answer type computed, before the common fields are filled in. */
export interface AnswerDraft {
  decision: Decision;
  summary: string;
  value?: string | number | boolean;
  unit?: string;
  items: AnswerItem[];
  /** Refs that carry the state: the support of a found, the doubt of an uncertain. */
  contributing: EvidenceRef[];
  eventCount: number;
}

/** The answer-independent facts every engine answer carries. */
export interface AnswerFrame {
  runId: string;
  answerKey: string;
  inspection: Inspection;
  videoOrder: Map<string, number>;
  provenance: EngineAnswer["provenance"];
  tokens: Pick<AnswerUsage, "input_tokens" | "output_tokens" | "cached_input_tokens">;
  /** The token budget also stopped the engine (production). */
  tokenBudgetExhausted?: boolean;
  /** What the answer looked for: precision is `exact` only when a citation holds one as written. */
  probes: QuestionProbe[];
}

/**
 * The precision of the spec's Answer section: `exact` for a found whose cited evidence holds a
 * probe as written (a direct match), `limited` for any other found and for uncertain, `unknown`
 * otherwise.
 */
export function precisionOf(
  state: Decision["state"],
  contributing: EvidenceRef[],
  probes: QuestionProbe[],
): EvidenceSummary["precision"] {
  if (state === "uncertain") return "limited";
  if (state !== "found") return "unknown";
  const direct = contributing.some((ref) =>
    probes.some((probe) => lexicalScore(probe.query, ref.text) >= EXACT_SCORE),
  );
  return direct ? "exact" : "limited";
}

/**
 * The coverage of the spec's Answer section: complete when every video was read whole with its
 * accepted evidence extracted, none when no accepted evidence was looked at, partial in between;
 * the scope counts the complete videos.
 */
export function coverageOf(inspection: Inspection): EngineAnswer["coverage"] {
  const total = inspection.videos.length;
  const complete = inspection.videos.filter(isComplete).length;
  const touched = inspection.videos.some((v) => isComplete(v) || v.touched);
  const state = total > 0 && complete === total ? "complete" : touched ? "partial" : "none";
  return { state, scope: `${complete} of ${total} video${total === 1 ? "" : "s"}` };
}

/** Where the evidence of an answer can be listed in full. */
export function drillDownPath(runId: string, answerKey: string): string {
  return `${API_PREFIX}/runs/${encodeURIComponent(runId)}/answers?key=${encodeURIComponent(answerKey)}`;
}

function citedIn(items: AnswerItem[]): EvidenceRef[] {
  return items.flatMap((item) => [
    ...item.evidence,
    ...item.attributes.flatMap((a) => a.evidence ?? []),
  ]);
}

/**
 * Fills in coverage, counts, evidence summary, usage and provenance. A found that cites
 * nothing is downgraded to uncertain here, whatever computed it: the last line of defence for
 * "never found without evidence".
 */
export function finishAnswer(frame: AnswerFrame, draft: AnswerDraft): EngineAnswer {
  const order = compareRefs(frame.videoOrder);
  const contributing = distinctRefs(draft.contributing);
  let decision = draft.decision;
  let summary = draft.summary;
  if (decision.state === "found" && contributing.length === 0) {
    decision = { state: "uncertain", reason: "no_cited_evidence" };
    summary = "Nothing in the index supports this answer.";
  }
  // A boolean value is a verdict: true only with found, false only with not_found.
  const value =
    typeof draft.value === "boolean" &&
    !(draft.value ? decision.state === "found" : decision.state === "not_found")
      ? undefined
      : decision === draft.decision
        ? draft.value
        : undefined;
  const coverage = coverageOf(frame.inspection);
  const representative = contributing.slice(0, 3);
  const all = distinctRefs([...citedIn(draft.items), ...contributing]).sort(order);
  const precision = precisionOf(decision.state, contributing, frame.probes);
  const answer: EngineAnswer = {
    result_state: decision.state,
    coverage,
    event_count: draft.eventCount,
    evidence_count: all.length,
    answer_payload: {
      summary,
      ...(value !== undefined ? { value } : {}),
      ...(draft.unit !== undefined ? { unit: draft.unit } : {}),
      items: draft.items,
      evidence_summary: {
        contributing_count: contributing.length,
        drill_down_path: drillDownPath(frame.runId, frame.answerKey),
        precision,
        representative,
      },
    },
    provenance: frame.provenance,
    usage: { ...frame.tokens, media_seconds: frame.inspection.mediaSeconds },
    budget_exhausted: frame.inspection.budgetExhausted || frame.tokenBudgetExhausted === true,
  };
  if (decision.state !== "found" && decision.reason !== undefined) {
    answer.reason_code = decision.reason;
  }
  return answer;
}
