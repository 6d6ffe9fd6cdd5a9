import type { AnswerRow, ReportRow, SnapshotRow } from "../../db/repos/runs";
import type { ResultState } from "../../domain/answers";
import type { RunUsage } from "../../domain/runs";

/**
 * What the run produced, handed over when it finishes: bounded whatever the run's size (its
 * answers and findings are stored step by step, before it finishes).
 */
export interface RunOutcome {
  /** Analysis runs: references to the answers (at most one per spec), for `run.completed`. */
  answers: Pick<AnswerRow, "id" | "key" | "type">[];
  output: SnapshotRow;
  usage: RunUsage;
  limitations: string[];
  resultState: ResultState;
  reasonCode: string | null;
  engine: string;
  /** Workflow runs: the line that counts their findings' states. */
  summary?: string;
  /** The automatic reports, rendered and stored, committed with the completion. */
  reports?: ReportRow[];
  /** A workflow run's report (its JSON one, else its only one), named by `run.completed`. */
  reportId?: string;
}
