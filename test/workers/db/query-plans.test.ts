import { beforeAll, describe, expect, it } from "vitest";
import { type Database, runBatch } from "../../../src/db/client";
import * as audit from "../../../src/db/repos/audit-log";
import { insertEventStatement } from "../../../src/db/repos/events";
import * as findings from "../../../src/db/repos/findings";
import { findProfile, findProfileVersion, profileRepo } from "../../../src/db/repos/profiles";
import {
  findReportTemplate,
  findReportTemplateVersion,
  reportTemplateRepo,
} from "../../../src/db/repos/report-templates";
import { findCsvImport } from "../../../src/db/repos/rulebook-csv-imports";
import * as rulebooks from "../../../src/db/repos/rulebooks";
import * as steps from "../../../src/db/repos/run-steps";
import * as runs from "../../../src/db/repos/runs";
import * as search from "../../../src/db/repos/search";
import * as searchScope from "../../../src/db/repos/search-scope";
import * as segments from "../../../src/db/repos/segments";
import * as usage from "../../../src/db/repos/usage";
import { videoDeletedAuditStatement } from "../../../src/db/repos/video-erasure";
import * as retention from "../../../src/db/repos/video-retention";
import * as videos from "../../../src/db/repos/videos";
import * as deliveries from "../../../src/db/repos/webhook-deliveries";
import * as endpoints from "../../../src/db/repos/webhook-endpoints";
import * as leases from "../../../src/db/repos/work-leases";
import {
  findWorkflow,
  listWorkflows,
  setLatestRunStatement,
} from "../../../src/db/repos/workflows";
import * as erasure from "../../../src/db/repos/workspace-erasure";
import * as erasureTables from "../../../src/db/repos/workspace-erasure-tables";
import * as workspaces from "../../../src/db/repos/workspaces";
import * as schema from "../../../src/db/schema";
import { keywordLevels } from "../../../src/lib/text/search-scoring";
import { fullScans, planOf, recordingDatabase, seedAll, seededId, seededRef } from "./query-plans";

// Every list and lookup query of the service, run for real against a database seeded with
// a few thousand rows per table and ANALYZEd, then explained: a plan that scans a whole
// growing table (GROWING_TABLES in ./query-plans.ts) fails, naming the statement.
//
// To add a query: add an entry below that calls the real repo function with `db` (rows the
// seed made are named by seededId(table, n) and seededRef(table, column, n)). A new table in
// src/db/schema is seeded by itself; add its name to GROWING_TABLES if it grows with use.
// Add one entry per filter combination a route allows: each may need its own index. E.g.
// the findings list (filters run_id, video_id, result_state, newest first; "findings" is in
// GROWING_TABLES already):
//   "findings: list": (db) => listFindings(db, WS, {}, after(seededId("findings", 9))),
//   "findings: list by run": (db) => listFindings(db, WS, { runId: RUN }, page),
//   "findings: list by video and state": (db) =>
//     listFindings(db, WS, { videoId: VIDEO, resultState: "failed" }, page),

const WS = seededRef(schema.videos, "workspace_id", 1);
/** Ten words: its levels end with a BM25-ranked OR. */
const LONG_QUERY = "forklift pallet ladder valve helmet crane trailer sensor battery freezer";
const OWNER = seededRef(schema.rulebooks, "owner_id", 1);
const VIDEO = seededId("videos", 1);
const RUN = seededId("runs", 1);
const ENDPOINT = seededId("webhook_endpoints", 1);
const DELIVERY = seededId("webhook_deliveries", 1);
const EVENT = seededId("events", 1);
const SEGMENT = seededId("video_segments", 1);
const PROFILE = seededId("profiles", 1);
const TEMPLATE = seededId("report_templates", 1);
const RULEBOOK = seededId("rulebooks", 1);
const SET = seededRef(schema.rules, "rule_set_version_id", 1);
const NOW = "2026-06-01T00:00:00.000Z";
const page = { limit: 25, after: undefined };
/** A step row as the run-step statements take it (only its run and position are read). */
const seededStep = {
  runId: RUN,
  position: 1,
  kind: "answer" as const,
  videoId: VIDEO,
  first: 0,
  count: 10,
  state: "pending" as const,
  claimedUntil: null,
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  mediaSeconds: 0,
  modelCalls: 0,
  limitations: [],
  updatedAt: NOW,
};
const seededAnswer = {
  id: "ans_query_plan",
  runId: RUN,
  workspaceId: WS,
  position: 99_999,
  key: "query-plan",
  type: "verdict" as const,
  resultState: "found" as const,
  coverage: { state: "complete", scope: "all" },
  eventCount: 0,
  evidenceCount: 0,
  payload: {
    summary: "",
    items: [],
    evidence_summary: {
      contributing_count: 0,
      drill_down_path: "",
      precision: "unknown" as const,
      representative: [],
    },
  },
  reasonCode: null,
  provenance: {},
  createdAt: NOW,
};
const after = (...key: (string | number)[]) => ({ limit: 25, after: key });
const actor = { keyId: "key_1", at: NOW };
const viewer = { workspaceId: WS, ownerId: OWNER };
const BY = { actor: "key_1", requestId: "req_1" };

/** Keyword retrieval of a query, 50 hits at most. */
function keywords(query: string, videoIds: string[] | undefined) {
  return { levels: keywordLevels(query), videoIds, limit: 50 };
}

const QUERIES: Record<string, (db: Database) => Promise<unknown>> = {
  "videos: list": (db) => videos.listVideos(db, WS, {}, after(VIDEO)),
  "videos: list by status": (db) => videos.listVideos(db, WS, { status: "failed" }, page),
  "videos: find": (db) => videos.findVideo(db, WS, VIDEO),
  "videos: find by id": (db) => videos.findVideoById(db, VIDEO),
  "videos: find many": (db) => videos.findVideos(db, WS, [VIDEO, seededId("videos", 2)]),
  "videos: guarded update": (db) =>
    videos.updateVideoIf(db, VIDEO, ["processing"], { progress: 50, updatedAt: NOW }),
  "segments: of a video": (db) => segments.listSegments(db, VIDEO),
  "segments: of videos": (db) => segments.listSegmentsOfVideos(db, [VIDEO]),
  "segments: replace": (db) =>
    runBatch(
      db,
      segments.replaceSegmentsStatements(db, VIDEO, [], videos.videoIsIn(VIDEO, ["processing"])),
    ),
  "search: keyword hits": (db) =>
    search.candidateSegments(db, WS, keywords("forklift pallet", undefined), []),
  "search: keyword hits in videos": (db) =>
    search.candidateSegments(db, WS, keywords("forklift pallet", [VIDEO]), []),
  "search: keyword hits of a long query (BM25 level)": (db) =>
    search.candidateSegments(db, WS, keywords(LONG_QUERY, undefined), []),
  "search: keyword hits and the index's matches": (db) =>
    search.candidateSegments(db, WS, keywords("forklift pallet", undefined), [SEGMENT]),
  "search: segments by id": (db) =>
    search.candidateSegments(db, WS, keywords("", undefined), [SEGMENT]),
  "search: 200 segments by id": (db) =>
    search.candidateSegments(
      db,
      WS,
      keywords("", undefined),
      Array.from({ length: 200 }, (_, i) => (i === 0 ? SEGMENT : `seg_missing_${i}`)),
    ),
  "search: filenames": (db) =>
    search.filenameCandidates(db, WS, '"forklift" OR "pallet"', undefined),
  "search: filenames in videos": (db) =>
    search.filenameCandidates(db, WS, '"forklift" OR "pallet"', [VIDEO]),
  "search: rows after the index, in one batch": (db) =>
    search.searchRows(db, WS, {
      keyword: keywords("forklift pallet", undefined),
      vectorIds: [SEGMENT],
      filenames: '"forklift" OR "pallet"',
      counts: true,
    }),
  "search: scope counts": (db) => searchScope.searchScopeCounts(db, WS, undefined),
  "search: scope counts in videos": (db) => searchScope.searchScopeCounts(db, WS, [VIDEO]),
  "search: existing videos": (db) => search.existingVideoIds(db, WS, [VIDEO]),
  "search: replace text": (db) => runBatch(db, search.replaceSearchTextStatements(db, VIDEO, [])),
  "runs: list": (db) => runs.listRuns(db, WS, {}, after(RUN)),
  "runs: list by status": (db) => runs.listRuns(db, WS, { status: "queued" }, page),
  "runs: list by video": (db) => runs.listRuns(db, WS, { videoId: VIDEO }, page),
  "runs: find": (db) => runs.findRun(db, WS, RUN),
  "runs: find by id": (db) => runs.findRunById(db, RUN),
  "runs: update": (db) => runBatch(db, [runs.updateRunStatement(db, RUN, { updatedAt: NOW })]),
  "runs: snapshots": (db) => runs.findSnapshots(db, RUN),
  "answers: page": (db) => runs.listAnswers(db, RUN, after(3)),
  "answers: all": (db) => runs.allAnswers(db, RUN),
  "answers: references": (db) => runs.answerReferences(db, RUN),
  "answers: insert": (db) => runBatch(db, runs.insertAnswersStatements(db, [seededAnswer])),
  "answers: state counts": (db) => runs.answerStateCounts(db, RUN),
  "answers: after": (db) => runs.answersAfter(db, RUN, 3, 500),
  "run steps: plan": (db) =>
    steps.planStepsStatement(db, {
      runId: RUN,
      questions: 25,
      perStep: 10,
      videoIds: [VIDEO, "vid_other"],
      now: NOW,
    }),
  "run steps: claim": (db) => steps.claimStep(db, RUN, NOW, NOW),
  "run steps: extend": (db) => runBatch(db, [steps.extendStepClaimStatement(db, seededStep, NOW)]),
  "run steps: complete": (db) =>
    runBatch(db, [
      steps.completeStepStatement(
        db,
        seededStep,
        {
          inputTokens: 1,
          outputTokens: 1,
          cachedInputTokens: 0,
          mediaSeconds: 1,
          modelCalls: 1,
          limitations: [],
        },
        NOW,
      ),
    ]),
  "run steps: claim answers": (db) => steps.claimAnswerSteps(db, RUN, NOW, NOW, 63),
  "run steps: complete many": (db) =>
    runBatch(db, [
      steps.completeStepsStatement(
        db,
        RUN,
        [1, 2].map((position) => ({
          position,
          spend: { ...seededStep, limitations: ["budget_exhausted"] },
        })),
        NOW,
      ),
    ]),
  "run steps: planned": (db) => steps.hasSteps(db, RUN),
  "run steps: progress": (db) => steps.stepProgress(db, RUN),
  "run steps: spend": (db) => steps.runSpend(db, RUN),
  "run steps: limitations": (db) => steps.runLimitations(db, RUN),
  "reports: list": (db) => runs.listReports(db, WS, RUN, after(seededId("reports", 9))),
  "reports: find": (db) => runs.findReport(db, WS, seededId("reports", 1)),
  "events: append guarded": (db) =>
    runBatch(db, [
      insertEventStatement(
        db,
        { workspaceId: WS, type: "video.indexed", data: {}, requestId: "req-plan" },
        videos.videoIsIn(VIDEO, ["completed"]),
      ),
    ]),
  "events: undispatched": (db) => deliveries.undispatchedEvents(db, 50),
  "events: by id": (db) => deliveries.eventById(db, EVENT),
  "events: mark dispatched": (db) =>
    runBatch(db, [deliveries.markDispatchedStatement(db, EVENT, NOW)]),
  "deliveries: first attempts": (db) => deliveries.firstAttemptsOf(db, EVENT),
  "deliveries: find": (db) => deliveries.findDelivery(db, WS, ENDPOINT, DELIVERY),
  "deliveries: by id": (db) => deliveries.deliveryById(db, DELIVERY),
  "deliveries: list": (db) => deliveries.listDeliveries(db, ENDPOINT, {}, after(DELIVERY)),
  "deliveries: list filtered": (db) =>
    deliveries.listDeliveries(db, ENDPOINT, { status: "failed", eventType: "run.completed" }, page),
  "deliveries: claim": (db) =>
    deliveries.claimDelivery(db, { id: DELIVERY, attempts: 0, due: NOW, now: NOW, until: NOW }),
  "deliveries: fail": (db) => deliveries.failWithoutAttempt(db, DELIVERY, NOW),
  "deliveries: stranded": (db) => deliveries.strandedDeliveries(db, NOW, NOW, 50),
  "deliveries: reset": (db) => deliveries.resetDelivery(db, DELIVERY, NOW),
  "deliveries: reset failed": (db) =>
    deliveries.resetFailedDeliveries(db, ENDPOINT, { since: "2026", until: NOW }, NOW),
  "deliveries: attempts": (db) => deliveries.attemptsOf(db, DELIVERY),
  "endpoints: find": (db) => endpoints.findEndpoint(db, WS, ENDPOINT),
  "endpoints: by id": (db) => endpoints.endpointById(db, ENDPOINT),
  "endpoints: list": (db) => endpoints.listEndpoints(db, WS, after(ENDPOINT)),
  "endpoints: for an event": (db) => endpoints.endpointsForEvent(db, WS, NOW),
  "endpoints: delete": (db) =>
    endpoints.deleteEndpoint(db, { id: seededId("webhook_endpoints", 2), workspaceId: WS }, BY),
  "endpoints: update audited": (db) =>
    endpoints.updateEndpoint(
      db,
      { id: "wh_none", workspaceId: WS },
      { url: "https://example.com/hook", eventTypes: ["*"], enabled: false, updatedAt: NOW },
      BY,
    ),
  "endpoints: rotate": (db) =>
    endpoints.rotateEndpointSecrets(
      db,
      { id: "wh_none", workspaceId: WS },
      { secret: "s", previousSecret: "p", previousSecretExpiresAt: NOW, updatedAt: NOW },
      BY,
    ),
  "profiles: find": (db) => findProfile(db, WS, PROFILE),
  "profiles: with latest": (db) => profileRepo.findWithLatest(db, WS, PROFILE),
  "profiles: version": (db) => findProfileVersion(db, WS, PROFILE, 1),
  "profiles: list": (db) => profileRepo.list(db, WS, "active", after(PROFILE)),
  "profiles: append": (db) =>
    profileRepo.appendVersion(db, WS, PROFILE, { instructions: "x", answerSpecs: [] }, actor),
  "profiles: archive": (db) => profileRepo.archive(db, WS, PROFILE, actor),
  "report templates: find": (db) => findReportTemplate(db, WS, TEMPLATE),
  "report templates: version": (db) => findReportTemplateVersion(db, WS, TEMPLATE, 1),
  "report templates: list": (db) => reportTemplateRepo.list(db, WS, "active", page),
  "rulebooks: find": (db) => rulebooks.findVisibleRulebook(db, viewer, RULEBOOK),
  "rulebooks: list": (db) => rulebooks.listVisibleRulebooks(db, viewer, page),
  "rulebooks: list after": (db) => rulebooks.listVisibleRulebooks(db, viewer, after(NOW, RULEBOOK)),
  "rulebooks: rules of sets": (db) => rulebooks.rulesOfSets(db, [SET]),
  "rulebooks: set number": (db) => rulebooks.ruleSetNumber(db, SET),
  "rulebooks: rule history": (db) => rulebooks.ruleHistory(db, RULEBOOK),
  "rulebooks: delete": (db) =>
    rulebooks.deleteRulebook(db, { id: RULEBOOK, workspaceId: WS }, NOW, BY),
  "csv imports: find": (db) => findCsvImport(db, viewer, seededId("rulebook_csv_imports", 1)),
  "workflows: find": (db) => findWorkflow(db, WS, seededId("workflows", 1)),
  "workflows: list": (db) => listWorkflows(db, WS, page),
  "workflows: set latest run": (db) =>
    runBatch(db, [setLatestRunStatement(db, seededId("workflows", 1), RUN, NOW)]),
  "runs: active workflow rulebooks": (db) => runs.activeWorkflowRulebooks(db, [RULEBOOK]),
  "findings: list": (db) => findings.listFindings(db, WS, {}, after(seededId("findings", 9))),
  "findings: list by run": (db) => findings.listFindings(db, WS, { runId: RUN }, page),
  "findings: list by video": (db) => findings.listFindings(db, WS, { videoId: VIDEO }, page),
  "findings: list by state": (db) =>
    findings.listFindings(db, WS, { resultState: "not_found" }, page),
  "findings: list by video and state": (db) =>
    findings.listFindings(db, WS, { videoId: VIDEO, resultState: "found" }, page),
  "findings: of a run": (db) => findings.findingsOfRun(db, RUN),
  "findings: state counts": (db) => findings.findingStateCounts(db, RUN),
  "findings: find": (db) => findings.findFinding(db, WS, seededId("findings", 1)),
  "findings: review": (db) =>
    findings.reviewFinding(db, seededId("findings", 1), {
      status: "confirmed",
      reviewNote: null,
      reviewedAt: NOW,
      reviewedBy: "key_1",
      updatedAt: NOW,
    }),
  "workspaces: find": (db) => workspaces.findWorkspace(db, WS),
  "workspaces: list": (db) => workspaces.listWorkspaces(db, page),
  "api keys: by hash": (db) => workspaces.findKeyByHash(db, "secret_hash 1"),
  "api keys: list": (db) => workspaces.listApiKeys(db, WS, page),
  "work leases: stale videos": (db) => leases.staleVideos(db, { staleBefore: NOW, limit: 50 }),
  "work leases: stale runs": (db) => leases.staleRuns(db, { staleBefore: NOW, limit: 50 }),
  "work leases: settle": (db) => leases.deleteSettledLeases(db),
  "work leases: find": (db) => leases.findLease(db, VIDEO),
  "retention: workspaces due": (db) =>
    retention.workspacesPastRetention(db, { now: NOW, limit: 50 }),
  "retention: videos due": (db) =>
    retention.videosPastRetention(db, { workspaceId: WS, createdBefore: NOW }, 50),
  // A seeded key, so the guarded audit entry is planned too; no other query reads key 2.
  "api keys: revoke": (db) => workspaces.revokeApiKey(db, seededId("api_keys", 2), NOW, BY),
  "workspaces: update audited": (db) =>
    workspaces.updateWorkspace(
      db,
      "ws_none",
      {
        name: "x",
        alphaOptIn: true,
        indexPrivateTags: true,
        retentionDays: 30,
        rateLimits: { search: 10 },
        updatedAt: NOW,
      },
      BY,
    ),
  "videos: deletion audited": (db) =>
    runBatch(db, [videoDeletedAuditStatement(db, WS, "vid_none", BY)]),
  "audit log: list": (db) => audit.listAuditEntries(db, WS, {}, after(seededId("audit_log", 9))),
  "audit log: list by action": (db) =>
    audit.listAuditEntries(db, WS, { action: "video.deleted" }, after(seededId("audit_log", 9))),
  "audit log: past retention": (db) => audit.deleteAuditEntriesBefore(db, "2000-01-01", 500),
  "audit log: workspace row": (db) => audit.workspaceRowExists(db, WS),
  "usage: count for a video, guarded": (db) =>
    runBatch(
      db,
      usage.countStatements(
        db,
        { workspaceId: WS, videoId: VIDEO },
        "2026-06-01",
        [{ metric: "heard_seconds", key: "", value: 1 }],
        steps.stepIsPending(seededStep),
      ),
    ),
  "usage: upload counted once": (db) =>
    runBatch(db, [
      ...usage.countStatements(
        db,
        { workspaceId: WS },
        "2026-06-01",
        [{ metric: "videos_uploaded", key: "", value: 1 }],
        videos.awaitingUpload(VIDEO),
      ),
      videos.markUploadedStatement(db, "vid_none", "req", NOW),
    ]),
  "usage: bytes peak": (db) => runBatch(db, [usage.bytesPeakStatement(db, WS, "2026-06-01")]),
  "usage: bytes removed": (db) =>
    runBatch(db, [usage.bytesRemovedStatement(db, WS, "vid_none", "2026-06-01")]),
  "usage: a run's findings": (db) =>
    runBatch(db, [usage.runFindingsStatement(db, RUN, "2026-06-01")]),
  "usage: days of a range": (db) => usage.usageRows(db, WS, "2025-06-01", "2026-06-01"),
  "usage: bytes before a day": (db) => usage.bytesLevel(db, WS, "2026-06-01"),
  "usage: bytes now": (db) => usage.bytesLevel(db, WS),
  "usage: a video's": (db) => usage.videoUsageRows(db, VIDEO),
  // A workspace's erasure; its deletes name no seeded row, so the seed stays whole.
  "workspaces: mark deleting": (db) => erasure.markWorkspaceDeleting(db, "ws_none", NOW, BY),
  "workspaces: find deleting": (db) => erasure.findDeletingWorkspace(db, WS),
  "workspaces: stale deleting": (db) =>
    erasure.staleDeletingWorkspaces(db, { staleBefore: NOW, limit: 50 }),
  "workspaces: touch deleting": (db) => erasure.touchDeletingWorkspace(db, "ws_none", NOW),
  "workspaces: delete row": (db) => erasure.deleteWorkspaceRow(db, "ws_none"),
  "erasure: live videos": (db) => erasure.liveVideosPage(db, WS, 20),
  "erasure: unerased videos": (db) => erasure.unerasedVideos(db, WS, NOW, 1),
  "erasure: runs to cancel": (db) => erasure.runsToCancel(db, WS, 20),
  "erasure: active runs": (db) => erasure.activeRunsPage(db, WS, 20),
  "erasure: ended runs": (db) => erasure.endedRunsPage(db, WS, 20),
  "erasure: runs": (db) =>
    runBatch(db, erasure.eraseRunsStatements(db, ["run_none"], ["run_none"])),
  ...Object.fromEntries(
    Object.entries({
      profiles: erasureTables.PROFILES,
      "report templates": erasureTables.REPORT_TEMPLATES,
      rulebooks: erasureTables.RULEBOOKS,
      "webhook endpoints": erasureTables.WEBHOOK_ENDPOINTS,
    }).map(([name, family]) => [
      `erasure: ${name}`,
      async (db: Database) => {
        await family.page(db, WS, 50);
        await runBatch(db, family.statements(db, ["none"]));
      },
    ]),
  ),
  ...Object.fromEntries(
    erasureTables.FLAT_TABLES.map((name) => [
      `erasure: ${name}`,
      (db: Database) => erasureTables.eraseFlatPage(db, name, "ws_none"),
    ]),
  ),
};

beforeAll(seedAll);

describe("every repository query reads through an index", () => {
  it.each(Object.keys(QUERIES))("%s", async (name) => {
    const { db, recorded } = recordingDatabase();
    await QUERIES[name]?.(db);
    expect(recorded.length, "the query sent no statement").toBeGreaterThan(0);
    for (const statement of recorded) {
      const plan = await planOf(statement);
      expect(fullScans(statement, plan), `${statement.sql}\n${plan.join("\n")}`).toEqual([]);
    }
  });
});
