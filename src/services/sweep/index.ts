import { deleteSettledLeases } from "../../db/repos/work-leases";
import type { Deps } from "../deps";
import { type AuditLogSweep, sweepAuditLog } from "./audit-log";
import { type ErasureSweep, sweepErasures } from "./erasure";
import { sweepClock } from "./lease";
import { type RetentionSweep, sweepRetention } from "./retention";
import { type RunSweep, sweepRuns } from "./runs";
import { sweepVideos, type VideoSweep } from "./videos";
import { sweepWebhooks, type WebhookSweep } from "./webhooks";

/** What one sweep did. */
export interface SweepReport {
  videos: VideoSweep;
  erasures: ErasureSweep;
  retention: RetentionSweep;
  runs: RunSweep;
  webhooks: WebhookSweep;
  auditLog: AuditLogSweep;
}

/**
 * The crash sweep (cron trigger; locally fired by the start scripts): queue sends are not
 * transactional with D1, and a crash can lose the message or the consumer holding it, so
 * every video and run still in flight after a lease without progress gets its work re-sent,
 * a bounded number of times. Consumers are idempotent, so a re-send never runs work twice.
 * It also deletes videos past their workspace's retention (`retention.ts`) and audit entries
 * past theirs (`audit-log.ts`).
 */
export async function runSweep(deps: Deps): Promise<SweepReport> {
  const clock = sweepClock(deps.config, deps.clock.now());
  const report: SweepReport = {
    videos: await sweepVideos(deps, clock),
    erasures: await sweepErasures(deps, clock),
    retention: await sweepRetention(deps, clock),
    runs: await sweepRuns(deps, clock),
    webhooks: await sweepWebhooks(deps),
    auditLog: await sweepAuditLog(deps, clock),
  };
  await deleteSettledLeases(deps.db);
  const touched =
    report.videos.resent.length +
    report.videos.failed.length +
    report.erasures.resent.length +
    report.retention.deleted.length +
    report.erasures.workspaces.length +
    report.runs.resent.length +
    report.runs.canceled.length +
    report.runs.failed.length +
    report.webhooks.resent +
    report.auditLog.deleted;
  if (touched > 0) deps.log.info({ sweep: report });
  return report;
}
