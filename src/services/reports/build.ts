import { redactPayload, SOURCE_DELETED } from "../deletion/redact";
import { answersByKey, renderBlock } from "./blocks";
import { decidedOnPart, NOTHING_UNDERSTOOD, partialCoverage } from "./coverage";
import { compareText, formatTime } from "./format";
import type { ReportModel, ReportNotice, ReportSource } from "./model";
import { lookup, type ReportStrings, stringsFor } from "./strings";
import type { RenderInput, StoredAnswer } from "./types";

type Limitation = ReportModel["limitations"][number];

/** Answers by key, then id: the order of the store's rows must not change the bytes. */
function reportOrder(answers: readonly StoredAnswer[]): StoredAnswer[] {
  return [...answers].sort((a, b) => compareText(a.key, b.key) || compareText(a.id, b.id));
}

const STATE_ORDER = ["found", "not_found", "uncertain", "not_checked"] as const;

/**
 * The answers counted by result state, in words, states with none left out; then how many
 * sources nothing was heard or seen of, and how many answers rest on part of the sources.
 */
function summaryOf(
  answers: readonly StoredAnswer[],
  unread: number,
  sourceCount: number,
  strings: ReportStrings,
  onPart: number,
): string {
  const parts = STATE_ORDER.flatMap((state) => {
    const count = answers.filter((a) => a.result_state === state).length;
    return count === 0 ? [] : [`${count} ${strings.states[state].toLowerCase()}`];
  });
  const notes = [
    ...(unread > 0 ? [strings.unreadSummary(unread, sourceCount)] : []),
    ...(onPart > 0 ? [strings.partialSummary(onPart)] : []),
  ];
  return strings.summaryText(parts, answers.length, notes);
}

/**
 * Uncertain and not-checked answers counted, each state with its reasons in words, then the
 * answers decided on part of the sources: none of them is a pass.
 */
function unansweredOf(
  answers: readonly StoredAnswer[],
  strings: ReportStrings,
  onPart: number,
): Limitation[] {
  const unanswered = (["not_checked", "uncertain"] as const).flatMap((state) => {
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
    return [{ code: state, text }];
  });
  if (onPart === 0) return unanswered;
  const partial = { code: "partial_coverage", text: strings.partialText(onPart, answers.length) };
  return [...unanswered, partial];
}

function sourcesOf(input: RenderInput, redacted: ReadonlySet<string>): ReportSource[] {
  return input.run.source_ids.map((videoId) => {
    const video = redacted.has(videoId) ? undefined : input.videos.find((v) => v.id === videoId);
    const duration = video !== undefined && Number.isFinite(video.duration) ? video.duration : null;
    return {
      video_id: videoId,
      title: video === undefined || video.title === "" ? null : video.title,
      duration,
      duration_text: formatTime(duration ?? undefined),
      redacted: redacted.has(videoId),
    };
  });
}

/** The run's notices on its own sources, once per video, in `source_ids` order. */
function noticesOf(input: RenderInput, sources: readonly ReportSource[]): ReportNotice[] {
  const strings = stringsFor(input.template.language);
  const seen = new Set<string>();
  return sources.flatMap((source) => {
    if (seen.has(source.video_id)) return [];
    seen.add(source.video_id);
    return input.notices
      .filter((notice) => notice.video_id === source.video_id)
      .map((notice) => ({
        code: notice.code,
        video_id: notice.video_id,
        detail: strings.noticeText(notice, source.title ?? source.video_id),
      }));
  });
}

/**
 * The notices a report shows: the run's, except that a withheld source has one notice saying
 * it was deleted and what the report withholds of it, in place of any other about it.
 */
function shownNotices(
  issued: readonly ReportNotice[],
  sources: readonly ReportSource[],
  strings: ReportStrings,
): ReportNotice[] {
  const seen = new Set<string>();
  return sources.flatMap((source): ReportNotice[] => {
    if (seen.has(source.video_id)) return [];
    seen.add(source.video_id);
    if (!source.redacted) return issued.filter((n) => n.video_id === source.video_id);
    const detail = `${source.video_id}: ${strings.redactedNotice}`;
    return [{ code: SOURCE_DELETED, video_id: source.video_id, detail }];
  });
}

/** The answers as the report shows them: what they hold of a withheld source is withheld. */
function shownAnswers(
  answers: readonly StoredAnswer[],
  redacted: ReadonlySet<string>,
  strings: ReportStrings,
): StoredAnswer[] {
  if (redacted.size === 0) return [...answers];
  return answers.map((answer) => ({
    ...answer,
    answer_payload: redactPayload(answer.answer_payload, redacted, strings.redacted),
  }));
}

/**
 * The sources an answer is about: a workflow verdict (`rule/video`) is about its one video,
 * an analysis answer about every source of the run.
 */
function answerSources(
  input: RenderInput,
  answer: StoredAnswer,
  sourceIds: ReadonlySet<string>,
): ReadonlySet<string> {
  if (input.run.kind !== "workflow") return sourceIds;
  const videoId = answer.key.slice(answer.key.lastIndexOf("/") + 1);
  return sourceIds.has(videoId) ? new Set([videoId]) : sourceIds;
}

/** Builds the format-neutral report of a run's stored answers; pure, no clock, no randomness. */
export function buildReport(input: RenderInput): ReportModel {
  const strings = stringsFor(input.template.language);
  const redacted = new Set(input.redacted ?? []);
  const answers = reportOrder(shownAnswers(input.answers, redacted, strings));
  const byKey = answersByKey(answers);
  const titleIndex = input.template.blocks.findIndex((block) => block.type === "heading");
  const titleBlock = input.template.blocks[titleIndex];
  const untitled = input.run.kind === "workflow" ? strings.workflowTitle : strings.defaultTitle;
  const title = titleBlock?.label?.trim() ? titleBlock.label : untitled;
  const sources = sourcesOf(input, redacted);
  // Counts and verdicts rest on the notices as issued: withholding a source changes no verdict.
  const issued = noticesOf(input, sources);
  const notices = shownNotices(issued, sources, strings);
  const sourceIds = new Set(input.run.source_ids);
  const unread = new Set(
    issued.filter((n) => n.code === NOTHING_UNDERSTOOD).map((n) => n.video_id),
  );
  // A deleted source was not read whole either: an answer decided without it is no pass.
  const unchecked = new Set(
    issued
      .filter((n) => n.code === NOTHING_UNDERSTOOD || n.code === SOURCE_DELETED)
      .map((n) => n.video_id),
  );
  const partialOf = (answer: StoredAnswer) =>
    partialCoverage(answer, answerSources(input, answer, sourceIds), unchecked);
  const onPart = answers.filter((a) => decidedOnPart(partialOf(a), a)).length;
  return {
    title,
    language: input.template.language,
    run_id: input.run.id,
    template: { id: input.template.id, version: input.template.version },
    profile_ref: input.run.profile_ref,
    profile_kind: input.run.kind === "workflow" ? "rulebook" : "profile",
    execution_profile_ref: input.run.execution_profile_ref,
    sources,
    limitations: [
      ...input.run.limitations.map((code) => ({
        code,
        text: lookup(strings.limitationTexts, code) ?? code,
      })),
      ...unansweredOf(answers, strings, onPart),
      ...notices.map((notice) => ({ code: notice.code, text: notice.detail })),
    ],
    notices,
    summary: summaryOf(answers, unread.size, sourceIds.size, strings, onPart),
    sections: input.template.blocks.map((block, index) =>
      renderBlock(block, { answers, byKey, strings, isTitle: index === titleIndex, partialOf }),
    ),
  };
}
