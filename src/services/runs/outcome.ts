import type { FindingRow } from "../../db/repos/findings";
import type { AnswerRow, ReportRow, SnapshotRow } from "../../db/repos/runs";
import type { ResultState } from "../../domain/answers";
import type { RunUsage } from "../../domain/runs";

/** What the run produced, handed over when it finishes. */
export interface RunOutcome {
  answers: AnswerRow[];
  output: SnapshotRow;
  usage: RunUsage;
  limitations: string[];
  resultState: ResultState;
  reasonCode: string | null;
  engine: string;
  /** Workflow runs: one finding per rule × video, and the line that counts their states. */
  findings?: FindingRow[];
  summary?: string;
  /** The automatic reports, rendered and stored, committed with the completion. */
  reports?: ReportRow[];
  /** A workflow run's report (its JSON one, else its only one), named by `run.completed`. */
  reportId?: string;
}
