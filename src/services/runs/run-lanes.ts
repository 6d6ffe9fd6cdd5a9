import {
  claimAnswerSteps,
  claimStep,
  extendStepClaimStatement,
  type RunStepRow,
  releaseStepClaimsStatement,
} from "../../db/repos/run-steps";
import { findRunById, type RunRow } from "../../db/repos/runs";
import { nowIso } from "../../lib/clock";
import type { RunAnalysisMessage } from "../../lib/queue-messages";
import type { Deps } from "../deps";
import { CLAIM_MS, withLeaseHeartbeat } from "../lease-heartbeat";
import type { Finisher } from "./finish-run";
import { loadRunContext, type RunContext } from "./run-context";
import { workStep } from "./work-step";

/**
 * Lanes of a workflow run: its steps worked side by side, enough to keep the account's model
 * rate busy (text generation: 4.75 calls/s after headroom) while each call waits ~2 s and each
 * step's reads and writes add their own time.
 */
export const WORKFLOW_LANES = 16;
/**
 * Steps one invocation works at most, all lanes together: each makes 3 D1 queries (claim,
 * spend, the batch that stores it), so 150 stay far under D1's 1,000 queries an invocation
 * with room for the context's reads and heartbeats.
 */
const STEPS_PER_INVOCATION = 150;
/**
 * The default wall-time budget of one invocation (`RUN_INVOCATION_SECONDS`). Longer budgets
 * hand off less often (each hand-off idles the model rate ~3.5 s) but, locally, where one
 * batch of a queue runs at a time, make another workspace's run wait longer: a one-rule run
 * beside a 200 × 50 one took 44 s with 30 s and 87 s with 60 s.
 */
export const DEFAULT_INVOCATION_SECONDS = 30;
/**
 * Steps a lane claims and stores together once its run's budget is spent: they ask no model,
 * so one claim, one read of the spend and one batch of a few statements serve them all, and
 * the group takes one step of the invocation's allowance (it costs the D1 queries of one).
 * 64 workflow steps are 512 answers and 512 findings, ~1 MB of rows held while they are
 * stored; every lane of a batch may hold a group at once.
 */
export const SPENT_STEPS_TOGETHER = 64;

/** Lanes a run is worked in: an analysis run's steps go one after another (its budget in order). */
export function lanesOf(run: Pick<RunRow, "kind">): number {
  return run.kind === "workflow" ? WORKFLOW_LANES : 1;
}

/**
 * What one queue invocation may still do, shared by the lanes of its batch: no new step
 * starts past the deadline or the step count, so an invocation ends within its budget plus
 * one step, far inside the platform's 15 minutes and its subrequest limit.
 */
export class Invocation {
  private readonly contexts = new Map<string, Promise<RunContext>>();
  private readonly handedOn: RunAnalysisMessage[] = [];
  private stepsLeft = STEPS_PER_INVOCATION;
  readonly deadline: number;

  /**
   * @param gather keep the lanes' continuations until `sendHandedOn` (a queue batch's lanes),
   *   rather than sending each as its lane ends
   */
  constructor(
    deps: Pick<Deps, "clock" | "config">,
    private readonly gather = false,
  ) {
    const raw = deps.config.RUN_INVOCATION_SECONDS;
    const seconds =
      raw !== undefined && /^\d+$/.test(raw) && Number(raw) > 0
        ? Number(raw)
        : DEFAULT_INVOCATION_SECONDS;
    this.deadline = deps.clock.now() + seconds * 1000;
  }

  /** The run's context, loaded once for all lanes of the batch. */
  context(deps: Pick<Deps, "db">, run: RunRow): Promise<RunContext> {
    let found = this.contexts.get(run.id);
    if (!found) {
      found = loadRunContext(deps, run);
      this.contexts.set(run.id, found);
    }
    return found;
  }

  /** Takes one step of the invocation's allowance; false once it is spent or late. */
  take(now: number): boolean {
    if (now >= this.deadline || this.stepsLeft <= 0) return false;
    this.stepsLeft--;
    return true;
  }

  /** Steps taken so far. */
  get steps(): number {
    return STEPS_PER_INVOCATION - this.stepsLeft;
  }

  /** The longest step of the invocation in ms, by kind (answer steps, the finish step). */
  readonly longestStepMs = { answer: 0, finish: 0 };

  /** Records how long a step of `kind` took. */
  timed(kind: "answer" | "finish", ms: number): void {
    this.longestStepMs[kind] = Math.max(this.longestStepMs[kind], ms);
  }

  /** Hands a lane to a new message: now, or with the batch's other lanes when gathering. */
  async handOn(deps: Pick<Deps, "queues">, message: RunAnalysisMessage): Promise<void> {
    if (this.gather) this.handedOn.push(message);
    else await deps.queues.analysis.send(message);
  }

  /**
   * Sends the gathered continuations in one batch, so the lanes arrive together and the next
   * delivery works them side by side: lanes sent one by one as their last steps end land in
   * batches of a few, and locally one batch of a queue runs at a time.
   */
  async sendHandedOn(deps: Pick<Deps, "queues">): Promise<void> {
    const messages = this.handedOn.splice(0);
    for (let i = 0; i < messages.length; i += SEND_BATCH_MAX) {
      const slice = messages.slice(i, i + SEND_BATCH_MAX);
      await deps.queues.analysis.sendBatch(slice.map((body) => ({ body })));
    }
  }
}

/** Messages one `sendBatch` takes at most (the platform's limit). */
const SEND_BATCH_MAX = 100;

/** The run's object, as a lane reaches it. */
export interface LaneCoordinator extends Finisher {
  checkpoint(): Promise<boolean>;
}

/**
 * One lane of a run: claims the run's next step, answers and stores it, and goes on until
 * nothing is claimable (the other lanes hold the rest, or the run is done) or the invocation's
 * budget is spent, when it hands itself to a new message. A cancel stops the lane at its next
 * claim, so it takes effect within one step.
 */
export async function workLane(
  deps: Deps,
  context: RunContext,
  coordinator: LaneCoordinator,
  invocation: Invocation,
): Promise<void> {
  const { db } = deps;
  const { run } = context;
  for (;;) {
    const now = deps.clock.now();
    if (!invocation.take(now)) {
      await invocation.handOn(deps, {
        type: "run-analysis",
        run_id: run.id,
        workspace_id: run.workspaceId,
        request_id: run.requestId,
      });
      return;
    }
    const claim = new HeldClaim(nowIso(now + CLAIM_MS));
    const step = await claimStep(db, run.id, nowIso(now), claim.until);
    if (!step) {
      await settle(deps, run, coordinator);
      return;
    }
    claim.positions.push(step.position);
    let kind: "answer" | "finish";
    try {
      kind = await workStep(
        deps,
        context,
        step,
        coordinator,
        (work) =>
          withLeaseHeartbeat(deps, { subjectId: run.id, kind: "run" }, work, (until) =>
            extendStepClaimStatement(db, step, claim.renewed(until)),
          ),
        () => claimSpentSteps(deps, run.id, claim),
      );
    } catch (error) {
      // Given back before the message's retry: the retry (or another lane of the run) claims
      // the step at once, where a kept claim left the run idle until the sweep re-sent it.
      await releaseStepClaimsStatement(db, run.id, claim.positions, claim.until).catch(
        (release: unknown) =>
          deps.log.error({ run_step_claim_kept: run.id, error: String(release) }),
      );
      throw error;
    }
    invocation.timed(kind, deps.clock.now() - now);
    if (kind === "finish") return;
  }
}

/** The steps a lane holds and the latest end it wrote for their claims. */
class HeldClaim {
  readonly positions: number[] = [];
  constructor(public until: string) {}

  /** Records a later end written for the claim, and answers it. */
  renewed(until: string): string {
    if (until > this.until) this.until = until;
    return until;
  }
}

/** Claims up to SPENT_STEPS_TOGETHER - 1 more answer steps of a run whose budget is spent. */
async function claimSpentSteps(deps: Deps, runId: string, held: HeldClaim): Promise<RunStepRow[]> {
  const now = deps.clock.now();
  const until = held.renewed(nowIso(now + CLAIM_MS));
  const steps = await claimAnswerSteps(
    deps.db,
    runId,
    nowIso(now),
    until,
    SPENT_STEPS_TOGETHER - 1,
  );
  for (const step of steps) held.positions.push(step.position);
  return steps;
}

/** Nothing to claim: a requested cancel is carried out here; otherwise other lanes hold the rest. */
async function settle(deps: Deps, run: RunRow, coordinator: LaneCoordinator): Promise<void> {
  const row = await findRunById(deps.db, run.id);
  if (row?.status === "processing" && row.cancelRequested) await coordinator.checkpoint();
}
