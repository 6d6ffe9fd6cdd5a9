import { deleteAuditEntriesBefore } from "../../db/repos/audit-log";
import { AUDIT_RETENTION_DAYS } from "../../domain/audit";
import { nowIso } from "../../lib/clock";
import type { Deps } from "../deps";
import type { SweepClock } from "./lease";

/** What one sweep did to the audit trail. */
export interface AuditLogSweep {
  deleted: number;
}

/** Entries deleted per statement, and statements per sweep at most. */
const ENTRIES_PER_PAGE = 500;
const PAGES_PER_SWEEP = 4;
const DAY_MS = 86_400_000;

/**
 * Deletes audit entries older than AUDIT_RETENTION_DAYS, oldest first, at most
 * ENTRIES_PER_PAGE × PAGES_PER_SWEEP a sweep; what is left is due again at the next one.
 */
export async function sweepAuditLog(
  deps: Pick<Deps, "db">,
  clock: SweepClock,
): Promise<AuditLogSweep> {
  const before = nowIso(Date.parse(clock.now) - AUDIT_RETENTION_DAYS * DAY_MS);
  let deleted = 0;
  for (let page = 0; page < PAGES_PER_SWEEP; page++) {
    const count = await deleteAuditEntriesBefore(deps.db, before, ENTRIES_PER_PAGE);
    deleted += count;
    if (count < ENTRIES_PER_PAGE) break;
  }
  return { deleted };
}
