import { ENGLISH } from "../../answer-engine/english";
import { type QuestionMode, questionMode } from "../../answer-engine/language-reading";
import { readingFor } from "../../answer-engine/languages";
import type { AnswerSpec, ResultState } from "../../domain/answers";
import type { FindingSeverity, FindingType } from "../../domain/findings";
import { type Rule, type RuleKind, ruleKindOf } from "../../domain/rulebooks";

// A key no prose contains, so no sentence of a playbook is ever taken for this question's words
// (the engine reads instruction sentences that name the answer key).
const RULE_ANSWER_KEY = "rule_question_0";

/** What the answer engine is asked for one rule: the spec and the mode the workflow decides. */
export interface RuleQuestion {
  kind: RuleKind;
  spec: AnswerSpec;
  /**
   * A requirement is met, and a hazard occurs, when it happens (or, for a rule about what is
   * said, when it is said): never because a briefing states the rule.
   */
  mode: QuestionMode;
}

/**
 * A rule as the verdict the workflow asks: "was this requirement met?" or "did this hazard
 * occur?". The title and the description are separate things to look for (each may be
 * supported on its own); the rule's id is never a word to look for.
 */
export function ruleQuestion(rule: Rule, locale = "en"): RuleQuestion {
  const kind = ruleKindOf(rule);
  const description = rule.description.trim();
  const spec: AnswerSpec = {
    answer_key: RULE_ANSWER_KEY,
    answer_type: "verdict",
    description: rule.title,
    ...(description === "" || description === rule.title.trim()
      ? {}
      : { fields: [{ key: "description", label: description }] }),
    evidence: { required: true },
  };
  const asked = questionMode([rule.title, description], "verdict", readingFor(locale) ?? ENGLISH);
  return { kind, spec, mode: asked === "mention" ? "mention" : "observation" };
}

const TYPES: Record<RuleKind, Record<ResultState, FindingType>> = {
  requirement: {
    found: "requirement_met",
    not_found: "requirement_not_shown",
    uncertain: "needs_review",
    not_checked: "needs_review",
  },
  hazard: {
    found: "hazard_observed",
    not_found: "hazard_not_shown",
    uncertain: "needs_review",
    not_checked: "needs_review",
  },
};

/**
 * The finding's type and severity: a requirement met or a hazard not shown is `info`; a hazard
 * seen, a requirement not shown, and anything a person must review carry the rule's severity
 * (`medium` when it has none).
 */
export function findingTyping(
  kind: RuleKind,
  state: ResultState,
  severity: Rule["severity"],
): { type: FindingType; severity: FindingSeverity } {
  const type = TYPES[kind][state];
  const harmless = type === "requirement_met" || type === "hazard_not_shown";
  return { type, severity: harmless ? "info" : (severity ?? "medium") };
}
