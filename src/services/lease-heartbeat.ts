import { runBatch } from "../db/client";
import { renewLeaseStatement, type WorkLease } from "../db/repos/work-leases";
import { nowIso } from "../lib/clock";
import type { Deps } from "./deps";

/** How often work in progress renews its item's lease (the default lease is three times this). */
export const LEASE_HEARTBEAT_MS = 20_000;

/**
 * Runs `work` while renewing the item's lease, once at the start (the work was picked up) and
 * every LEASE_HEARTBEAT_MS after, so the sweep takes over only work that has stopped.
 */
export async function withLeaseHeartbeat<T>(
  deps: Pick<Deps, "db" | "clock">,
  subject: { subjectId: string; kind: WorkLease["kind"] },
  work: () => Promise<T>,
): Promise<T> {
  const renew = () =>
    runBatch(deps.db, [
      renewLeaseStatement(deps.db, { ...subject, activeFrom: nowIso(deps.clock.now()) }),
    ]).catch((error: unknown) =>
      console.error(JSON.stringify({ heartbeat: subject.subjectId, error: String(error) })),
    );
  await renew();
  const timer = setInterval(renew, LEASE_HEARTBEAT_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
