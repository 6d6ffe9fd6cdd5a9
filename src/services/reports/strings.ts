import type { ResultState } from "../../domain/answers";
import { SOURCE_DELETED } from "../deletion/redact";
import { NOTHING_UNDERSTOOD, type PartialCoverage } from "./coverage";
import type { RunNoticeInput } from "./types";

/** The fixed strings of a report in one language. */
export interface ReportStrings {
  defaultTitle: string;
  run: string;
  profile: string;
  executionProfile: string;
  template: string;
  sources: string;
  limitations: string;
  none: string;
  untitled: string;
  /** What a text of a deleted source reads as (its quote, title, label or summary). */
  redacted: string;
  /** The notice on a deleted source: what the report withholds of it. */
  redactedNotice: string;
  /** Result states in words, as table cells and result lines show them. */
  states: Record<ResultState, string>;
  /** What a verdict (or any yes/no value) says when its check is uncertain. */
  uncertainVerdict: string;
  pass: string;
  fail: string;
  yes: string;
  no: string;
  noItems: string;
  noAnswers: string;
  missingAnswer: (answerKey: string) => string;
  /** A number that is a lower bound (what was read of a video read in part). */
  atLeast: (value: string) => string;
  groupLabel: (column: string, value: string) => string;
  /** Labels of the built-in fields and columns, overridable by `field_labels`. */
  fieldLabels: Record<string, string>;
  /** Section headings of blocks without a `label` or `answer_key`. */
  blockTitles: Record<string, string>;
  limitationTexts: Record<string, string>;
  rulebook: string;
  /** The title of a workflow run's report without a heading block. */
  workflowTitle: string;
  summary: string;
  /** The counts by state, e.g. "1 found, 2 not checked (3 answers)", then further notes. */
  summaryText: (parts: string[], total: number, notes: string[]) => string;
  /** "2 of 6 not checked: required evidence was not extracted (2)". */
  unansweredText: (state: string, count: number, total: number, reasons: string) => string;
  /** A found `true` verdict on part of the sources: what it says instead of a bare pass. */
  partialPass: (coverage: PartialCoverage) => string;
  /** The summary's note on sources nothing was heard or seen of. */
  unreadSummary: (count: number, total: number) => string;
  /** The summary's note on answers decided on part of the sources. */
  partialSummary: (count: number) => string;
  /** The limitation of answers decided on part of the sources. */
  partialText: (count: number, total: number) => string;
  /** A run notice in the report's words; `name` is the video's title. */
  noticeText: (notice: RunNoticeInput, name: string) => string;
  /** Reason codes in words; an unknown code is written with spaces. */
  reasonTexts: Record<string, string>;
}

const EN: ReportStrings = {
  defaultTitle: "Analysis report",
  run: "Run",
  profile: "Profile",
  executionProfile: "Execution profile",
  template: "Template",
  sources: "Sources",
  limitations: "Limitations",
  none: "None",
  untitled: "Untitled",
  redacted: "[redacted: source deleted]",
  redactedNotice:
    "This video was deleted: its quotes, title and media are withheld from this report, which otherwise reads as issued.",
  states: {
    found: "Found",
    not_found: "Not found",
    uncertain: "Uncertain",
    not_checked: "Not checked",
  },
  uncertainVerdict: "Uncertain — not a pass",
  pass: "Pass",
  fail: "Fail",
  yes: "Yes",
  no: "No",
  noItems: "No items.",
  noAnswers: "No answers.",
  missingAnswer: (key) => `Answer "${key}" was not produced.`,
  atLeast: (value) => `at least ${value}`,
  groupLabel: (column, value) => `${column}: ${value}`,
  fieldLabels: {
    verdict: "Verdict",
    value: "Value",
    result_state: "Result",
    time: "Time",
    start: "Start",
    end: "End",
    label: "Item",
    item_id: "Item ID",
    evidence: "Evidence",
    rank: "Rank",
    answer_id: "Answer ID",
    answer_key: "Answer",
    type: "Type",
    summary: "Summary",
  },
  blockTitles: {
    verdict: "Verdict",
    measurement: "Measurement",
    timeline: "Timeline",
    table: "Table",
    narrative: "Summary",
    enumeration: "Enumeration",
    comparison: "Comparison",
    retrieval: "Matches",
    synthesis: "Summary",
  },
  limitationTexts: {
    budget_exhausted: "The processing budget limited the result",
    execution_failed: "Execution failed",
    required_evidence_not_extracted: "Required evidence was not extracted",
  },
  rulebook: "Rulebook",
  workflowTitle: "Workflow report",
  summary: "Summary",
  summaryText: (parts, total, notes) =>
    [`${parts.join(", ")} (${total} ${total === 1 ? "answer" : "answers"})`, ...notes].join("; "),
  unansweredText: (state, count, total, reasons) =>
    `${count} of ${total} ${state.toLowerCase()}: ${reasons}`,
  partialPass: ({ cited, total, unchecked }) => {
    const tail = " — not a pass over all sources";
    if (cited === 0 || total <= 1) return `Found, but not everything was read${tail}`;
    return `Found in ${cited} of ${total} videos; ${unchecked} not checked${tail}`;
  },
  unreadSummary: (count, total) =>
    `nothing was heard or seen in ${count} of ${total} ${total === 1 ? "source" : "sources"}`,
  partialSummary: (count) =>
    `${count} ${count === 1 ? "answer" : "answers"} decided without everything read`,
  partialText: (count, total) =>
    `${count} of ${total} decided without everything read: not a pass over all sources`,
  // The run's own words, so the report, GET /runs/{run_id} and `vas run` say the same.
  noticeText: (notice) => notice.detail,
  reasonTexts: {
    required_evidence_not_extracted: "the evidence the rule needs was not extracted",
    speech_not_transcribed: "speech was found but not transcribed",
    no_literal_match: "the words were not found as written",
    instruction_not_observation: "what was said is a rule or request, not that it happened",
    observation_not_instruction: "what was said is an observation, not a rule",
    unclear_polarity: "it is unclear whether it was said or denied",
    quantity_not_stated: "no number was stated",
    below_threshold: "the evidence was too weak",
    conflicting_evidence: "the evidence disagrees",
    partial_coverage: "only part of the video was read",
    language_unsupported: "the language is not read",
    language_mismatch: "the video is in another language",
    no_supporting_evidence: "nothing supports it",
    budget_exhausted: "the processing budget ran out",
  },
};

const JA: ReportStrings = {
  defaultTitle: "分析レポート",
  run: "実行",
  profile: "プロファイル",
  executionProfile: "実行プロファイル",
  template: "テンプレート",
  sources: "ソース",
  limitations: "制限事項",
  none: "なし",
  untitled: "無題",
  redacted: "[非表示: ソースは削除済み]",
  redactedNotice:
    "この動画は削除されました。この報告書ではその引用、タイトル、メディアを表示しません。それ以外は発行時のままです。",
  states: {
    found: "検出",
    not_found: "未検出",
    uncertain: "不確定",
    not_checked: "未確認",
  },
  uncertainVerdict: "不確定（合格ではありません）",
  pass: "合格",
  fail: "不合格",
  yes: "はい",
  no: "いいえ",
  atLeast: (value) => `${value}以上`,
  noItems: "項目はありません。",
  noAnswers: "回答はありません。",
  missingAnswer: (key) => `回答「${key}」は生成されませんでした。`,
  groupLabel: (column, value) => `${column}：${value}`,
  fieldLabels: {
    verdict: "判定",
    value: "値",
    result_state: "結果",
    time: "時刻",
    start: "開始",
    end: "終了",
    label: "項目",
    item_id: "項目ID",
    evidence: "証拠",
    rank: "順位",
    answer_id: "回答ID",
    answer_key: "回答",
    type: "種類",
    summary: "概要",
  },
  blockTitles: {
    verdict: "判定",
    measurement: "測定",
    timeline: "タイムライン",
    table: "表",
    narrative: "概要",
    enumeration: "列挙",
    comparison: "比較",
    retrieval: "検索結果",
    synthesis: "概要",
  },
  limitationTexts: {
    budget_exhausted: "処理予算により結果が制限されました",
    execution_failed: "実行に失敗しました",
    required_evidence_not_extracted: "必要な証拠が抽出されませんでした",
  },
  rulebook: "ルールブック",
  workflowTitle: "ワークフローレポート",
  summary: "概要",
  summaryText: (parts, total, notes) =>
    [`${parts.join("、")}（回答 ${total} 件）`, ...notes].join("。"),
  unansweredText: (state, count, total, reasons) =>
    `${total} 件中 ${count} 件が${state}: ${reasons}`,
  partialPass: ({ cited, total, unchecked }) => {
    const tail = "（すべてのソースについての合格ではありません）";
    if (cited === 0 || total <= 1) return `検出、ただしすべては読み取れていません${tail}`;
    return `${total} 本中 ${cited} 本で検出、${unchecked} 本は未確認${tail}`;
  },
  unreadSummary: (count, total) =>
    `ソース ${total} 件中 ${count} 件では何も聞き取れず、何も見えませんでした`,
  partialSummary: (count) => `${count} 件の回答はすべてを読み取らずに判断`,
  partialText: (count, total) =>
    `${total} 件中 ${count} 件はすべてを読み取らずに判断: すべてのソースについての合格ではありません`,
  noticeText: (notice, name) =>
    notice.code === NOTHING_UNDERSTOOD
      ? `${name}：この動画では何も聞き取れず、何も見えませんでした。検索ではタイトルとタグでしか見つからず、この動画についての規則や回答はすべて未確認です。字幕トラックを付けて、もう一度アップロードしてください。`
      : notice.code === SOURCE_DELETED
        ? `${name}：この動画は削除されました。以降この実行は何も読み取らず、回答には含まれません。メディアと索引は消去されます。`
        : notice.detail,
  reasonTexts: {
    required_evidence_not_extracted: "必要な証拠が抽出されませんでした",
  },
};

const BY_LANGUAGE: Record<string, ReportStrings> = { en: EN, ja: JA };

/** Own-property lookup, so template-supplied keys such as `constructor` never hit the prototype. */
export function lookup<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Strings for a template language (`ja`, `ja-JP`, `EN`...); any other language gets `en`. */
export function stringsFor(language: string): ReportStrings {
  const primary = language.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  return lookup(BY_LANGUAGE, primary) ?? EN;
}

/**
 * Every language's word for a pass. A displayed value equal to one of these on a check that is
 * not `found` is replaced, so a mapping or an engine string cannot turn it into a pass.
 */
export const PASS_WORDS: ReadonlySet<string> = new Set(
  [EN.pass, "passed", JA.pass].map((word) => word.toLowerCase()),
);
