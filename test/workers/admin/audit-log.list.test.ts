import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { AUDIT_RETENTION_DAYS } from "../../../src/domain/audit";
import { sweepAuditLog } from "../../../src/services/sweep/audit-log";
import { sweepClock } from "../../../src/services/sweep/lease";
import {
  admin,
  createKey,
  createWorkspace,
  expectJson,
  expectProblem,
  ORIGIN,
  workerFetch,
} from "../../helpers/harness";
import { type AuditPage, auditLog, auditTrail } from "./audit-trail";

const DAY_MS = 86_400_000;

/** A workspace whose trail holds its creation and `keys` key creations, oldest first. */
async function workspaceWithKeys(keys: number) {
  const workspace = await createWorkspace();
  const keyIds: string[] = [];
  for (let i = 0; i < keys; i++) keyIds.push((await createKey(workspace.id)).id);
  return { workspaceId: workspace.id, keyIds };
}

/** Writes `count` entries of the workspace dated `daysAgo` days back, straight into D1. */
async function entriesAged(workspaceId: string, count: number, daysAgo: number) {
  const at = new Date(Date.now() - daysAgo * DAY_MS).toISOString();
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO audit_log (id, workspace_id, actor, action, target_type, target_id, changes, request_id, created_at)
     SELECT printf('aud_%s_%06d', ?, i), ?, 'admin', 'workspace.renamed', 'workspace', ?, NULL, NULL, ? FROM n`,
  )
    .bind(count, `${daysAgo}`.padStart(4, "0"), workspaceId, workspaceId, at)
    .run();
}

async function storedCount(workspaceId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE workspace_id = ?")
    .bind(workspaceId)
    .first<{ n: number }>();
  return row?.n ?? -1;
}

describe("listing a workspace's audit trail", () => {
  it("pages newest first, each entry once, and filters by action", async () => {
    const { workspaceId, keyIds } = await workspaceWithKeys(5);
    const pages: AuditPage[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page: AuditPage = await expectJson(await auditLog(workspaceId, query), 200);
      expect(page.data.length).toBeLessThanOrEqual(2);
      pages.push(page);
      cursor = page.next_cursor;
    } while (cursor !== null);
    const entries = pages.flatMap((page) => page.data);
    expect(pages).toHaveLength(3);
    expect(entries.map((entry) => entry.target_id)).toEqual([
      ...[...keyIds].reverse(),
      workspaceId,
    ]);
    const ids = entries.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort().reverse());

    const created = await auditTrail(workspaceId, "?action=api_key.created&limit=3");
    expect(created.map((entry) => entry.target_id)).toEqual([...keyIds].reverse());
    expect(await auditTrail(workspaceId, "?action=webhook_endpoint.deleted")).toEqual([]);
  });

  it("shows a workspace only its own entries", async () => {
    const mine = await workspaceWithKeys(1);
    const theirs = await workspaceWithKeys(2);
    const entries = await auditTrail(mine.workspaceId);
    expect(entries.map((entry) => entry.target_id)).toEqual([...mine.keyIds, mine.workspaceId]);
    for (const entry of entries) expect(entry.workspace_id).toBe(mine.workspaceId);
    const text = JSON.stringify(entries);
    for (const id of [theirs.workspaceId, ...theirs.keyIds]) expect(text).not.toContain(id);
  });

  it("refuses a bad limit, action or cursor with a 400 naming the field", async () => {
    const { workspaceId } = await workspaceWithKeys(2);
    const other = await workspaceWithKeys(2);
    const first: AuditPage = await expectJson(await auditLog(workspaceId, "?limit=1"), 200);
    const cursor = encodeURIComponent(first.next_cursor ?? "");
    const cases: [string, string, string][] = [
      [workspaceId, "?limit=0", "limit"],
      [workspaceId, "?limit=101", "limit"],
      [workspaceId, "?action=api_key.stolen", "action"],
      [workspaceId, "?action[]=api_key.created", "action[]"],
      [workspaceId, "?cursor=abc.def", "cursor"],
      // A cursor is bound to its workspace and its filter.
      [other.workspaceId, `?cursor=${cursor}`, "cursor"],
      [workspaceId, `?action=api_key.created&cursor=${cursor}`, "cursor"],
    ];
    for (const [id, query, field] of cases) {
      const problem = await expectProblem(await auditLog(id, query), 400, "invalid-request");
      expect(
        problem.errors?.map((error) => error.path),
        query,
      ).toContain(field);
    }
  });

  it("answers 404 for an unknown workspace and 401 without the admin token", async () => {
    await expectProblem(await auditLog("ws_00000000000000000000000000"), 404, "resource-not-found");
    const { workspaceId } = await workspaceWithKeys(0);
    for (const authorization of [null, "Bearer wrong"]) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      const res = await workerFetch(`${ORIGIN}/admin/v1/workspaces/${workspaceId}/audit-log`, {
        headers,
      });
      await expectProblem(res, 401, "unauthorized");
    }
  });

  it("is documented in the admin OpenAPI document", async () => {
    const doc = await expectJson<{
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
    }>(await admin("GET", "/openapi.json"), 200);
    const operation = doc.paths["/workspaces/{id}/audit-log"]?.get;
    expect(operation?.parameters?.map((parameter) => parameter.name).sort()).toEqual([
      "action",
      "cursor",
      "id",
      "limit",
    ]);
  });
});

describe("how long entries are kept", () => {
  it(`deletes entries older than ${AUDIT_RETENTION_DAYS} days and keeps newer ones`, async () => {
    const { workspaceId } = await workspaceWithKeys(1);
    await entriesAged(workspaceId, 3, AUDIT_RETENTION_DAYS + 1);
    await entriesAged(workspaceId, 2, AUDIT_RETENTION_DAYS - 1);
    expect(await storedCount(workspaceId)).toBe(2 + 3 + 2);

    const deps = { db: database(env.DB) };
    const report = await sweepAuditLog(deps, sweepClock(env));
    expect(report.deleted).toBe(3);
    const left = await auditTrail(workspaceId);
    expect(left).toHaveLength(4);
    const cutoff = Date.now() - AUDIT_RETENTION_DAYS * DAY_MS;
    for (const entry of left) expect(Date.parse(entry.created_at)).toBeGreaterThan(cutoff);
  });

  it("deletes a backlog in bounded pages, oldest first, over several sweeps", async () => {
    const { workspaceId } = await workspaceWithKeys(0);
    await entriesAged(workspaceId, 2_100, AUDIT_RETENTION_DAYS + 30);
    const deps = { db: database(env.DB) };
    // Other files' entries are never this old, so the counts are this test's own.
    expect((await sweepAuditLog(deps, sweepClock(env))).deleted).toBe(2_000);
    expect(await storedCount(workspaceId)).toBe(1 + 100);
    expect((await sweepAuditLog(deps, sweepClock(env))).deleted).toBe(100);
    expect(await auditTrail(workspaceId)).toEqual([
      expect.objectContaining({ action: "workspace.created", target_id: workspaceId }),
    ]);
  });
});
