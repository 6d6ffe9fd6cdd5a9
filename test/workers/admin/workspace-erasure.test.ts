import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { storedVectorIds } from "../../helpers/deletion";
import { admin, expectJson, expectProblem } from "../../helpers/harness";
import {
  bucketKeys,
  deleteWorkspace,
  eraseLater,
  idsOfWorkspace,
  keysMentioning,
  rowsMentioning,
  rowsOfWorkspace,
  workspaceTables,
} from "../../helpers/workspace-deletion";
import { fullWorkspace } from "./workspace-world";

/**
 * Whether no table with a workspace_id column holds a row of the workspace, but its audit trail,
 * which goes with the row.
 */
async function nothingLeftButTheTrail(workspaceId: string): Promise<boolean> {
  const rows = await rowsOfWorkspace(workspaceId);
  return Object.entries(rows).every(([table, n]) => table === "audit_log" || n === 0);
}

describe("erasing a deleted workspace", () => {
  it("erases every row, object and vector of it and nothing of another workspace", async () => {
    const kept = await fullWorkspace();
    const doomed = await fullWorkspace();

    // The test world reaches every table that names a workspace, so "none left" means something.
    const tables = await workspaceTables();
    expect(tables).toEqual(
      expect.arrayContaining(["videos", "runs", "answers", "findings", "reports", "events"]),
    );
    const before = await rowsOfWorkspace(doomed.workspaceId);
    const empty = tables.filter((table) => before[table] === 0);
    expect(empty, "tables the test world left empty").toEqual([]);
    const keptRows = await rowsOfWorkspace(kept.workspaceId);
    const keptIds = await idsOfWorkspace(kept.workspaceId);
    const keptKeys = await keysMentioning(keptIds);
    const keptVectors = await storedVectorIds(kept.workspaceId, kept.videoId);
    expect(keptVectors).not.toEqual([]);
    const doomedIds = await idsOfWorkspace(doomed.workspaceId);
    for (const id of [doomed.videoId, ...doomed.runIds, doomed.csvSessionId, doomed.endpointId])
      expect(doomedIds).toContain(id);
    const doomedKeys = await keysMentioning(doomedIds);
    for (const prefix of ["videos/", "staging/", "reports/", "csv-imports/"])
      expect(
        doomedKeys.some((key) => key.startsWith(prefix)),
        prefix,
      ).toBe(true);
    expect(await storedVectorIds(doomed.workspaceId, doomed.videoId)).not.toEqual([]);

    await expectJson(await deleteWorkspace(doomed.workspaceId), 202);
    // The queue erases everything but the audit trail and the row, which wait a lease after the
    // deletion; until then the trail shows the deletion.
    await vi.waitUntil(() => nothingLeftButTheTrail(doomed.workspaceId), {
      timeout: 60_000,
      interval: 250,
    });
    const trail = await expectJson<{ data: { action: string }[] }>(
      await admin("GET", `/workspaces/${doomed.workspaceId}/audit-log?limit=100`),
      200,
    );
    expect(trail.data[0]?.action).toBe("workspace.deletion_requested");
    expect(await eraseLater(doomed.workspaceId)).toBe("erased");

    expect(await rowsOfWorkspace(doomed.workspaceId)).toEqual(
      Object.fromEntries(tables.map((table) => [table, 0])),
    );
    // Children without a workspace_id column (versions, rules, steps, attempts, windows,
    // leases, snapshots) named the workspace's ids: no row of any table names one now.
    expect(await rowsMentioning(doomedIds)).toEqual([]);
    expect(await keysMentioning(doomedIds)).toEqual([]);
    expect(await storedVectorIds(doomed.workspaceId, doomed.videoId)).toEqual([]);
    await expectProblem(await deleteWorkspace(doomed.workspaceId), 404, "resource-not-found");
    await expectProblem(
      await admin("GET", `/workspaces/${doomed.workspaceId}/audit-log`),
      404,
      "resource-not-found",
    );
    await expectProblem(await doomed.api.get("/videos"), 401, "unauthorized");

    expect(await rowsOfWorkspace(kept.workspaceId)).toEqual(keptRows);
    expect(await idsOfWorkspace(kept.workspaceId)).toEqual(keptIds);
    expect(await keysMentioning(keptIds)).toEqual(keptKeys);
    expect(await storedVectorIds(kept.workspaceId, kept.videoId)).toEqual(keptVectors);
    const listed = await expectJson<{ data: { id: string }[] }>(await kept.api.get("/videos"), 200);
    expect(listed.data.map((video) => video.id)).toEqual([kept.openVideoId, kept.videoId]);
    for (const runId of kept.runIds)
      expect((await kept.api.get(`/runs/${runId}`)).status).toBe(200);
    expect((await kept.api.get(`/webhooks/${kept.endpointId}`)).status).toBe(200);
    // The shared rulebook templates have no workspace and stay.
    const templates = await env.DB.prepare(
      "SELECT count(*) AS n FROM rulebooks WHERE is_template = 1",
    ).first<{ n: number }>();
    expect(templates?.n).toBeGreaterThan(0);
    expect((await bucketKeys()).length).toBeGreaterThanOrEqual(keptKeys.length);
  }, 180_000);
});
