import { API_PREFIX } from "../../api-prefix";
import { findingStateCounts } from "../../db/repos/findings";
import { runLimitations, runSpend } from "../../db/repos/run-steps";
import { answerReferences, answerStateCounts, type RunRow } from "../../db/repos/runs";
import type { ResultState } from "../../domain/answers";
import { type RunUsage, runResultState } from "../../domain/runs";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { Deps } from "../deps";
import { renderReports } from "../reports/create-reports";
import { storedAnswersOf } from "../reports/input";
import type { RunOutcome } from "./outcome";
import type { RunContext } from "./run-context";
import { summarizeCounts } from "./run-summary";

/** The run's object, as the finish step reaches it. */
export interface Finisher {
  finish(outcome: RunOutcome): Promise<unknown>;
}

/**
 * The finish step, once every answer step is done: the run's usage, limitations and result
 * state come from SQL over its stored steps and answers (nothing that grows with the run is
 * held or sent whole), its reports are rendered, and its object completes it.
 */
export async function finishRun(
  deps: Pick<Deps, "db" | "bucket" | "ports">,
  context: RunContext,
  coordinator: Finisher,
): Promise<void> {
  const { db } = deps;
  const { run } = context;
  const spend = await runSpend(db, run.id);
  const limitations = await runLimitations(db, run.id);
  const usage: RunUsage = {
    input_tokens: spend.inputTokens,
    output_tokens: spend.outputTokens,
    cached_input_tokens: spend.cachedInputTokens,
    total_tokens: spend.inputTokens + spend.outputTokens,
    media_seconds: spend.mediaSeconds,
    model_calls: spend.modelCalls,
  };
  const createdAt = nowIso();
  const states = [...(await answerStateCounts(db, run.id)).keys()];
  const resultState = runResultState(states);
  const base = { usage, limitations, resultState, engine: deps.ports.answerEngine.id };
  const reasonCode = limitations.includes("budget_exhausted") ? "budget_exhausted" : null;
  let outcome: RunOutcome;
  if (context.kind === "analysis") {
    const answers = await answerReferences(db, run.id);
    const content = {
      answers: answers.map((a) => ({
        answer_id: a.id,
        answer_key: a.key,
        result_state: a.resultState,
      })),
    };
    outcome = { ...base, reasonCode, answers, output: output(run, content, base, createdAt) };
  } else {
    const counts = await findingStateCounts(db, run.id);
    const summary = summarizeCounts(counts, (await context.videoIds()).length);
    // Counts and a link: one entry per rule × video would outgrow a D1 value (2 MB).
    const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
    const findings = { count: total, path: `${API_PREFIX}/findings?run_id=${run.id}` };
    const content = { findings, summary };
    outcome = {
      ...base,
      reasonCode,
      answers: [],
      summary,
      output: output(run, content, base, createdAt),
    };
  }
  await coordinator.finish(await withReports(deps, context, outcome));
}

function output(
  run: RunRow,
  content: Record<string, unknown>,
  base: { usage: RunUsage; limitations: string[]; resultState: ResultState },
  createdAt: string,
): RunOutcome["output"] {
  return {
    id: newId("snap"),
    runId: run.id,
    kind: "output",
    content: {
      ...content,
      result_state: base.resultState,
      usage: base.usage,
      limitations: base.limitations,
    },
    createdAt,
  };
}

/**
 * Renders the reports a run asked for (`formats`; a workflow's output modes) from its stored
 * answers before the run completes, so the completion commits them in its own batch and
 * `run.completed` can name the workflow run's report. A crash before the commit leaves only
 * unreferenced bytes under the run's prefix; the finish step, run again, renders anew.
 */
async function withReports(
  deps: Pick<Deps, "db" | "bucket">,
  context: RunContext,
  outcome: RunOutcome,
): Promise<RunOutcome> {
  const { run } = context;
  if (run.formats.length === 0) return outcome;
  const ended = { ...run, limitations: outcome.limitations };
  const answers = await storedAnswersOf(deps.db, run.id);
  const reports = await renderReports(deps, ended, answers, {
    formats: run.formats,
    requestId: run.requestId,
    ...(context.kind === "workflow" ? { rules: context.rules } : {}),
  });
  const chosen = reports.find((report) => report.format === "json") ?? reports[0];
  return run.kind === "workflow" && chosen
    ? { ...outcome, reports, reportId: chosen.id }
    : { ...outcome, reports };
}
