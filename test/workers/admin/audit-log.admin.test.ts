import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectJson } from "../../helpers/harness";
import { type AuditEntry, adminAs, auditTrail } from "./audit-trail";

const ANY_TIME = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/** The entries of an action, oldest first. */
function of(entries: AuditEntry[], action: string): AuditEntry[] {
  return entries.filter((entry) => entry.action === action).reverse();
}

describe("the audit trail of admin API changes", () => {
  it("records a workspace's creation and each setting a PATCH moves, before and after", async () => {
    const workspace = await expectJson<{ id: string }>(
      await adminAs("req-create", "POST", "/workspaces", {
        name: "Audited",
        alpha_opt_in: true,
        retention_days: 30,
      }),
      201,
    );
    const path = `/workspaces/${workspace.id}`;
    // Name and opt-in are sent as they are: only the three settings that move are recorded.
    const patch = {
      name: "Audited",
      alpha_opt_in: true,
      retention_days: 90,
      index_private_tags: true,
      rate_limits: { search: 10 },
    };
    await expectJson(await adminAs("req-patch", "PATCH", path, patch), 200);
    await expectJson(await adminAs("req-same", "PATCH", path, { retention_days: 90 }), 200);
    await expectJson(
      await adminAs("req-more", "PATCH", path, {
        name: "Renamed",
        alpha_opt_in: false,
        retention_days: null,
        rate_limits: { search: null, reads: 100 },
      }),
      200,
    );

    const entries = await auditTrail(workspace.id);
    expect(entries.map((entry) => entry.request_id)).not.toContain("req-same");
    const created = of(entries, "workspace.created");
    expect(created).toEqual([
      {
        id: expect.stringMatching(/^aud_/),
        workspace_id: workspace.id,
        actor: "admin",
        action: "workspace.created",
        target_type: "workspace",
        target_id: workspace.id,
        changes: {
          name: { after: "Audited" },
          alpha_opt_in: { after: true },
          index_private_tags: { after: false },
          retention_days: { after: 30 },
        },
        request_id: "req-create",
        created_at: ANY_TIME,
      },
    ]);
    const changes = (action: string) =>
      of(entries, action).map((entry) => [entry.request_id, entry.actor, entry.changes]);
    expect(changes("workspace.retention_changed")).toEqual([
      ["req-patch", "admin", { retention_days: { before: 30, after: 90 } }],
      ["req-more", "admin", { retention_days: { before: 90, after: null } }],
    ]);
    expect(changes("workspace.private_tags_changed")).toEqual([
      ["req-patch", "admin", { index_private_tags: { before: false, after: true } }],
    ]);
    expect(changes("workspace.rate_limits_changed")).toEqual([
      ["req-patch", "admin", { rate_limits: { before: null, after: { search: 10 } } }],
      ["req-more", "admin", { rate_limits: { before: { search: 10 }, after: { reads: 100 } } }],
    ]);
    expect(changes("workspace.renamed")).toEqual([
      ["req-more", "admin", { name: { before: "Audited", after: "Renamed" } }],
    ]);
    expect(changes("workspace.alpha_access_changed")).toEqual([
      ["req-more", "admin", { alpha_opt_in: { before: true, after: false } }],
    ]);
    expect(entries).toHaveLength(8);
    for (const entry of entries) expect(entry.target_id).toBe(workspace.id);
  });

  it("records a key's creation without its secret, and its first revocation only", async () => {
    const { id: workspaceId } = await expectJson<{ id: string }>(
      await adminAs("req-ws", "POST", "/workspaces", { name: "Keys" }),
      201,
    );
    const key = await expectJson<{ id: string; key: string; owner_id: string }>(
      await adminAs("req-key", "POST", "/keys", {
        workspace_id: workspaceId,
        type: "standard",
        permissions: ["READ_VIDEOS", "READ_VIDEOS", "SEARCH_CONTENT"],
        expires_at: "2030-01-01T00:00:00Z",
      }),
      201,
    );
    expect((await adminAs("req-revoke", "DELETE", `/keys/${key.id}`)).status).toBe(204);
    expect((await adminAs("req-again", "DELETE", `/keys/${key.id}`)).status).toBe(204);

    const entries = await auditTrail(workspaceId);
    expect(entries.map((entry) => [entry.action, entry.request_id])).toEqual([
      ["api_key.revoked", "req-revoke"],
      ["api_key.created", "req-key"],
      ["workspace.created", "req-ws"],
    ]);
    expect(entries[1]).toMatchObject({
      actor: "admin",
      target_type: "api_key",
      target_id: key.id,
      changes: {
        type: { after: "standard" },
        permissions: { after: ["READ_VIDEOS", "SEARCH_CONTENT"] },
        owner_id: { after: key.owner_id },
        expires_at: { after: "2030-01-01T00:00:00.000Z" },
      },
    });
    expect(entries[0]).toMatchObject({ target_id: key.id, changes: null, actor: "admin" });
    const stored = await env.DB.prepare("SELECT * FROM audit_log WHERE workspace_id = ?")
      .bind(workspaceId)
      .all();
    const text = JSON.stringify(stored.results);
    const hash = await env.DB.prepare("SELECT secret_hash FROM api_keys WHERE id = ?")
      .bind(key.id)
      .first<{ secret_hash: string }>();
    expect(text).not.toContain(key.key);
    expect(text).not.toContain(key.key.slice(4, 16));
    expect(text).not.toContain(hash?.secret_hash ?? "no hash");
  });

  it("records a workspace's deletion once, readable while erasure runs", async () => {
    const { id: workspaceId } = await expectJson<{ id: string }>(
      await adminAs("req-ws", "POST", "/workspaces", { name: "Doomed" }),
      201,
    );
    // Three at once: one marks the workspace, and only that one is recorded.
    const answers = await Promise.all(
      ["req-del-1", "req-del-2", "req-del-3"].map((id) =>
        adminAs(id, "DELETE", `/workspaces/${workspaceId}`),
      ),
    );
    for (const answer of answers) expect(answer.status).toBe(202);
    const deletions = of(await auditTrail(workspaceId), "workspace.deletion_requested");
    expect(deletions).toHaveLength(1);
    expect(deletions[0]).toMatchObject({
      actor: "admin",
      target_type: "workspace",
      target_id: workspaceId,
      changes: null,
      request_id: expect.stringMatching(/^req-del-[123]$/),
    });
  });

  it("records concurrent revocations of one key once", async () => {
    const { id: workspaceId } = await expectJson<{ id: string }>(
      await adminAs("req-ws", "POST", "/workspaces", { name: "Race" }),
      201,
    );
    const key = await expectJson<{ id: string }>(
      await adminAs("req-key", "POST", "/keys", {
        workspace_id: workspaceId,
        type: "alpha",
        permissions: [],
      }),
      201,
    );
    const answers = await Promise.all(
      [1, 2, 3, 4].map((n) => adminAs(`req-revoke-${n}`, "DELETE", `/keys/${key.id}`)),
    );
    for (const answer of answers) expect(answer.status).toBe(204);
    expect(of(await auditTrail(workspaceId), "api_key.revoked")).toHaveLength(1);
  });
});
