import type { BatchItem } from "drizzle-orm/batch";
import { runBatch } from "../db/client";
import { renewLeaseStatement, type WorkLease } from "../db/repos/work-leases";
import { nowIso } from "../lib/clock";
import type { Deps } from "./deps";

/** How often work in progress renews its item's lease (the default lease is three times this). */
export const LEASE_HEARTBEAT_MS = 20_000;
/** A claim on a part of the work outlives a missed heartbeat or two, then lets another take it. */
export const CLAIM_MS = 3 * LEASE_HEARTBEAT_MS;

/** How a heartbeat renews besides the item's lease. */
export interface HeartbeatOptions {
  /** Renews at the start as well (work just picked up); a claim made just now needs not. */
  atStart?: boolean;
  /** The claim on the part being worked on, renewed with the lease (given its new end). */
  claim?: (until: string) => BatchItem<"sqlite">;
}

/**
 * Runs `work` while renewing the item's lease (and the claim on the part being worked on)
 * every LEASE_HEARTBEAT_MS, in one batch, so neither another delivery nor the sweep takes
 * live work over, and work that stops shows as stale within a lease.
 */
export async function withLeaseHeartbeat<T>(
  deps: Pick<Deps, "db" | "clock">,
  subject: { subjectId: string; kind: WorkLease["kind"] },
  work: () => Promise<T>,
  options: HeartbeatOptions = { atStart: true },
): Promise<T> {
  const { db } = deps;
  const renew = () => {
    const now = deps.clock.now();
    const lease = renewLeaseStatement(db, { ...subject, activeFrom: nowIso(now) });
    const claim = options.claim?.(nowIso(now + CLAIM_MS));
    return runBatch(db, claim ? [claim, lease] : [lease]).catch((error: unknown) =>
      console.error(JSON.stringify({ heartbeat: subject.subjectId, error: String(error) })),
    );
  };
  if (options.atStart) await renew();
  const timer = setInterval(renew, LEASE_HEARTBEAT_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
