import type { BatchItem } from "drizzle-orm/batch";
import { runBatch } from "../db/client";
import { renewLeaseStatement, type WorkLease } from "../db/repos/work-leases";
import { nowIso } from "../lib/clock";
import type { Deps } from "./deps";

/** How often work in progress renews its item's lease (the default lease is three times this). */
export const LEASE_HEARTBEAT_MS = 20_000;
/** A claim on a part of the work outlives a missed heartbeat or two, then lets another take it. */
export const CLAIM_MS = 3 * LEASE_HEARTBEAT_MS;

/**
 * Runs `work` while renewing the item's lease (and `claim`, the claim on the part being worked
 * on, given its new end) every LEASE_HEARTBEAT_MS, in one batch, so neither another delivery
 * nor the sweep takes live work over, and work that stops shows as stale within a lease. Work
 * just picked up from a queue renews at the start too; a part claimed just now needs not.
 */
export async function withLeaseHeartbeat<T>(
  deps: Pick<Deps, "db" | "clock" | "log">,
  subject: { subjectId: string; kind: WorkLease["kind"] },
  work: () => Promise<T>,
  claim?: (until: string) => BatchItem<"sqlite">,
): Promise<T> {
  const { db } = deps;
  const renew = () => {
    const now = deps.clock.now();
    const lease = renewLeaseStatement(db, { ...subject, activeFrom: nowIso(now) });
    const claimed = claim?.(nowIso(now + CLAIM_MS));
    return runBatch(db, claimed ? [claimed, lease] : [lease]).catch((error: unknown) =>
      deps.log.error({ heartbeat: subject.subjectId, error: String(error) }),
    );
  };
  if (!claim) await renew();
  const timer = setInterval(renew, LEASE_HEARTBEAT_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
