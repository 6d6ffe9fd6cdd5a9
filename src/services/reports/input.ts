import { findReportTemplateVersion } from "../../db/repos/report-templates";
import { rulesOfSets } from "../../db/repos/rulebooks";
import { type AnswerRow, answersAfter, findSnapshots, type RunRow } from "../../db/repos/runs";
import type { AnswerType } from "../../domain/answers";
import type { TemplateBlock } from "../../domain/report-templates";
import type { Rule } from "../../domain/rulebooks";
import { nameAtVersion } from "../../lib/refs";
import type { DeletedSources } from "../deletion/redact";
import type { Deps } from "../deps";
import type { RenderInput, RenderTemplate, RunNoticeInput, StoredAnswer } from "./types";
import { workflowHeadings } from "./workflow-headings";

/** Answers read per query when a report renders them (one reply stays small). */
const ANSWERS_PER_READ = 500;

/** Every answer of the run in profile order, read a page at a time. */
export async function storedAnswersOf(db: Deps["db"], runId: string): Promise<AnswerRow[]> {
  const out: AnswerRow[] = [];
  for (let after = -1; ; ) {
    const page = await answersAfter(db, runId, after, ANSWERS_PER_READ);
    out.push(...page);
    const last = page.at(-1);
    if (!last || page.length < ANSWERS_PER_READ) return out;
    after = last.position;
  }
}

const DEFAULT_BLOCK: Record<AnswerType, TemplateBlock["type"]> = {
  verdict: "verdict",
  measurement: "measurement",
  timeline: "timeline",
  enumeration: "table",
  comparison: "table",
  retrieval: "table",
  synthesis: "narrative",
};

/**
 * The template used when a run names none: one block per answer, chosen by answer type, headed
 * by `headings` (a workflow's rule titles) where given, else by the answer key.
 */
export function defaultTemplate(
  answers: AnswerRow[],
  locale: string,
  headings: Record<string, string> = {},
): RenderTemplate {
  return {
    id: "default",
    version: 1,
    language: locale.split("-")[0] === "ja" ? "ja" : "en",
    blocks: answers.map((answer) => ({
      type: DEFAULT_BLOCK[answer.type],
      answer_key: answer.key,
      label: headings[answer.key] ?? answer.key,
    })),
  };
}

/**
 * What a report names as the run's profile: the profile version of an analysis run; for a
 * workflow run its rulebook, written as reports have always written it (`rb_…@1`).
 */
function profileRef(run: RunRow): string {
  if (run.kind === "workflow") return `${run.rulebookId}@1`;
  return `${run.profileId}@${run.profileVersion}`;
}

/** A stored answer as rendering reads it. */
function storedAnswer(row: AnswerRow): StoredAnswer {
  const answer: StoredAnswer = {
    id: row.id,
    key: row.key,
    type: row.type,
    result_state: row.resultState,
    coverage: row.coverage,
    event_count: row.eventCount,
    evidence_count: row.evidenceCount,
    answer_payload: row.payload,
  };
  if (row.reasonCode !== null) answer.reason_code = row.reasonCode;
  return answer;
}

async function templateFor(
  deps: Pick<Deps, "db">,
  run: RunRow,
  answers: AnswerRow[],
  inline: RenderTemplate | undefined,
  headings: Record<string, string> | undefined,
) {
  if (inline) return { template: inline, ref: nameAtVersion(inline.id, inline.version) };
  if (run.reportTemplateId !== null && run.reportTemplateVersion !== null) {
    const version = await findReportTemplateVersion(
      deps.db,
      run.workspaceId,
      run.reportTemplateId,
      run.reportTemplateVersion,
    );
    if (version) {
      return {
        template: {
          id: run.reportTemplateId,
          version: version.version,
          language: version.language,
          blocks: version.blocks,
        },
        ref: nameAtVersion(version.templateName ?? run.reportTemplateId, version.version),
      };
    }
  }
  const fallback = defaultTemplate(answers, run.locale, headings);
  return { template: fallback, ref: nameAtVersion(fallback.id, fallback.version) };
}

/** The run's sources as its input snapshot froze them. */
interface SnapshotSource {
  video_id: string;
  title: string | null;
  filename: string;
  duration: number | null;
}

/** A workflow run's rules: the caller's, else its rule set version's (which never changes). */
async function rulesOf(deps: Pick<Deps, "db">, run: RunRow, given: Rule[] | undefined) {
  if (given !== undefined || run.ruleSetVersionId === null) return given ?? [];
  return (await rulesOfSets(deps.db, [run.ruleSetVersionId])).get(run.ruleSetVersionId) ?? [];
}

/** What a report is rendered from besides the run and its answers. */
export interface InputOptions {
  inlineTemplate?: RenderTemplate;
  /** A workflow run's frozen rules when the caller holds them; else read from its rule set. */
  rules?: Rule[];
  /** The run's notices as stored state gave them when the report was made. */
  notices: RunNoticeInput[];
  /** Deleted sources whose quotes, names and links the report withholds. */
  redacted: DeletedSources;
}

/**
 * Everything a report of the run renders from: the sources its input snapshot froze, the
 * template (inline, the run's version, else the default one, headed by a workflow's rules),
 * and the answers. Also the template's `name@version`, the report's `report_template_ref`.
 */
export async function reportInput(
  deps: Pick<Deps, "db">,
  run: RunRow,
  answers: AnswerRow[],
  options: InputOptions,
): Promise<{ input: RenderInput; ref: string }> {
  const snapshot = (await findSnapshots(deps.db, run.id)).find((s) => s.kind === "input")
    ?.content as { sources?: SnapshotSource[] } | undefined;
  const videos = (snapshot?.sources ?? []).map((source) => ({
    id: source.video_id,
    title: source.title ?? source.filename,
    duration: source.duration ?? 0,
  }));
  // A deleted source's title is withheld from headings too; its id names it instead.
  const names = new Map(
    videos.map((video) => [video.id, options.redacted.has(video.id) ? video.id : video.title]),
  );
  const headings =
    run.kind === "workflow"
      ? workflowHeadings(
          await rulesOf(deps, run, options.rules),
          answers.map((answer) => answer.key),
          names,
        )
      : undefined;
  const { template, ref } = await templateFor(deps, run, answers, options.inlineTemplate, headings);
  const input: RenderInput = {
    run: {
      id: run.id,
      source_ids: run.sourceIds,
      profile_ref: profileRef(run),
      execution_profile_ref: run.executionProfileRef,
      limitations: run.limitations,
      kind: run.kind,
    },
    videos,
    notices: options.notices,
    answers: answers.map(storedAnswer),
    template,
    redacted: [...options.redacted].sort(),
  };
  return { input, ref };
}
