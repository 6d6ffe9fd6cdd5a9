import type { RunRow } from "../../db/repos/runs";
import { type Stale, staleRuns, upsertLeaseStatement } from "../../db/repos/work-leases";
import type { StoredError } from "../../domain/async-errors";
import { asyncError } from "../../errors/async-codes";
import { type Deps, withRequest } from "../deps";
import { openLanes } from "../runs/execute-run";
import { lanesOf } from "../runs/run-lanes";
import { MAX_SWEEP_TRIES, SWEEP_BATCH, type SweepClock } from "./lease";

const STALLED: StoredError = asyncError("execution_stalled", {
  detail: `Executing the run made no progress after ${MAX_SWEEP_TRIES} restarts.`,
});

/** What one sweep did to runs. */
export interface RunSweep {
  resent: string[];
  canceled: string[];
  failed: string[];
}

/**
 * Takes over runs that made no progress within the lease: a run whose cancellation was
 * requested is canceled (its work is gone, so nothing else would end it), any other has its
 * lanes re-sent to the analysis queue (they resume after its last stored step), and after
 * MAX_SWEEP_TRIES re-sends that were picked up and stalled again it fails with
 * `execution_stalled`. Every move goes through the run's object, which checks it.
 */
export async function sweepRuns(deps: Deps, clock: SweepClock): Promise<RunSweep> {
  const { db } = deps;
  const done: RunSweep = { resent: [], canceled: [], failed: [] };
  for (const stale of await staleRuns(db, { ...clock, limit: SWEEP_BATCH })) {
    // One item that cannot be handled must not keep the others stranded.
    await sweepRun(deps, clock, stale, done).catch((error: unknown) =>
      withRequest(deps, stale.row.requestId).log.error({
        sweep: stale.row.id,
        error: String(error),
      }),
    );
  }
  return done;
}

async function sweepRun(
  deps: Deps,
  clock: SweepClock,
  { row, attempts, pickedUp }: Stale<RunRow>,
  done: RunSweep,
): Promise<void> {
  const coordinator = deps.objects.runs.getByName(row.id);
  if (row.cancelRequested) {
    await coordinator.abandon();
    done.canceled.push(row.id);
  } else if (pickedUp && attempts >= MAX_SWEEP_TRIES) {
    await coordinator.fail(STALLED, ["execution_stalled"]);
    done.failed.push(row.id);
  } else {
    // A re-send never picked up (its messages wait behind a backlog) is not a failed attempt.
    await upsertLeaseStatement(deps.db, {
      subjectId: row.id,
      kind: "run",
      attempts: pickedUp ? attempts + 1 : attempts,
      activeFrom: clock.now,
      resentAt: clock.now,
    });
    await openLanes(deps, row, lanesOf(row));
    done.resent.push(row.id);
  }
}
