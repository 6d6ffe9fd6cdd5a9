import { answersByKey, renderBlock } from "./blocks";
import { compareText, formatTime } from "./format";
import type { ReportModel, Unanswered } from "./model";
import { lookup, type ReportStrings, stringsFor } from "./strings";
import type { RenderInput, StoredAnswer } from "./types";

/** Answers by key, then id: the order of the store's rows must not change the bytes. */
function reportOrder(answers: readonly StoredAnswer[]): StoredAnswer[] {
  return [...answers].sort((a, b) => compareText(a.key, b.key) || compareText(a.id, b.id));
}

const STATE_ORDER = ["found", "not_found", "uncertain", "not_checked"] as const;

/** The answers counted by result state, in words, states with none left out. */
function summaryOf(answers: readonly StoredAnswer[], strings: ReportStrings): string {
  const parts = STATE_ORDER.flatMap((state) => {
    const count = answers.filter((a) => a.result_state === state).length;
    return count === 0 ? [] : [`${count} ${strings.states[state].toLowerCase()}`];
  });
  return strings.summaryText(parts, answers.length);
}

/** Uncertain and not-checked answers counted, each state with its reasons in words. */
function unansweredOf(answers: readonly StoredAnswer[], strings: ReportStrings): Unanswered[] {
  return (["not_checked", "uncertain"] as const).flatMap((state) => {
    const those = answers.filter((a) => a.result_state === state);
    if (those.length === 0) return [];
    const byReason = new Map<string, number>();
    for (const answer of those) {
      const code = answer.reason_code ?? "no_supporting_evidence";
      byReason.set(code, (byReason.get(code) ?? 0) + 1);
    }
    const reasons = [...byReason]
      .sort(([a, m], [b, n]) => n - m || compareText(a, b))
      .map(
        ([code, n]) => `${lookup(strings.reasonTexts, code) ?? code.replaceAll("_", " ")} (${n})`,
      )
      .join("; ");
    const text = strings.unansweredText(
      strings.states[state],
      those.length,
      answers.length,
      reasons,
    );
    return [{ result_state: state, count: those.length, text }];
  });
}

/** Builds the format-neutral report of a run's stored answers; pure, no clock, no randomness. */
export function buildReport(input: RenderInput): ReportModel {
  const strings = stringsFor(input.template.language);
  const answers = reportOrder(input.answers);
  const byKey = answersByKey(answers);
  const titleIndex = input.template.blocks.findIndex((block) => block.type === "heading");
  const titleBlock = input.template.blocks[titleIndex];
  const untitled = input.run.kind === "workflow" ? strings.workflowTitle : strings.defaultTitle;
  const title = titleBlock?.label?.trim() ? titleBlock.label : untitled;
  const sources = input.run.source_ids.map((videoId) => {
    const video = input.videos.find((v) => v.id === videoId);
    const duration = video !== undefined && Number.isFinite(video.duration) ? video.duration : null;
    return {
      video_id: videoId,
      title: video === undefined || video.title === "" ? null : video.title,
      duration,
      duration_text: formatTime(duration ?? undefined),
    };
  });
  return {
    title,
    language: input.template.language,
    run_id: input.run.id,
    template: { id: input.template.id, version: input.template.version },
    profile_ref: input.run.profile_ref,
    profile_kind: input.run.kind === "workflow" ? "rulebook" : "profile",
    execution_profile_ref: input.run.execution_profile_ref,
    sources,
    limitations: input.run.limitations.map((code) => ({
      code,
      text: lookup(strings.limitationTexts, code) ?? code,
    })),
    summary: summaryOf(answers, strings),
    unanswered: unansweredOf(answers, strings),
    sections: input.template.blocks.map((block, index) =>
      renderBlock(block, { answers, byKey, strings, isTitle: index === titleIndex }),
    ),
  };
}
