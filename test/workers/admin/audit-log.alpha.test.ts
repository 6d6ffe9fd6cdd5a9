import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPorts } from "../../../src/ports";
import { createDeps } from "../../../src/services/deps";
import { runSweep } from "../../../src/services/sweep";
import { insertVideos } from "../../helpers/factories";
import { admin, type Client, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import { recordingEnv } from "../../helpers/sweep";
import { createRulebook } from "../rulebooks/bodies";
import { type AuditEntry, auditTrail } from "./audit-trail";

/** Sends an alpha request with X-Request-Id (and an Idempotency-Key when given). */
function send(
  api: Client,
  requestId: string,
  method: string,
  path: string,
  body?: unknown,
  idempotencyKey?: string,
): Promise<Response> {
  const headers: Record<string, string> = { "x-request-id": requestId };
  if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
  return api.request(method, path, { body, headers });
}

/** The entries of the workspace the admin API did not make, oldest first. */
async function keyEntries(workspaceId: string): Promise<AuditEntry[]> {
  return (await auditTrail(workspaceId)).filter((entry) => entry.actor !== "admin").reverse();
}

describe("the audit trail of alpha API changes", () => {
  it("records a webhook endpoint's life with the key as actor and the URL's origin only", async () => {
    const { api, workspaceId, keyId } = await newTenant(["MANAGE_WEBHOOKS"]);
    const url = "https://hooks.example.com/services/T0/B0/receiver-token?sig=abc";
    const body = { url, event_types: ["video.indexed"] };
    // A retry with the same Idempotency-Key replays the first answer and records nothing.
    const created = await expectJson<{ id: string; secret: string }>(
      await send(api, "req-create", "POST", "/webhooks", body, "create-once"),
      201,
    );
    const replayed = await send(api, "req-replay", "POST", "/webhooks", body, "create-once");
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    const path = `/webhooks/${created.id}`;
    await expectJson(
      await send(api, "req-move", "PATCH", path, {
        url: "https://other.example.net:8443/in",
        event_types: ["video.indexed", "run.completed"],
      }),
      200,
    );
    await expectJson(await send(api, "req-describe", "PATCH", path, { description: "x" }), 200);
    await expectJson(await send(api, "req-off", "PATCH", path, { enabled: false }), 200);
    const rotated = await expectJson<{ secret: string }>(
      await send(api, "req-rotate", "POST", `${path}/rotate-secret`, undefined, "rotate-once"),
      200,
    );
    await send(api, "req-rotate-2", "POST", `${path}/rotate-secret`, undefined, "rotate-once");
    expect((await send(api, "req-delete", "DELETE", path)).status).toBe(204);

    const entries = await keyEntries(workspaceId);
    expect(entries.map((entry) => [entry.action, entry.request_id])).toEqual([
      ["webhook_endpoint.created", "req-create"],
      ["webhook_endpoint.updated", "req-move"],
      ["webhook_endpoint.updated", "req-off"],
      ["webhook_endpoint.secret_rotated", "req-rotate"],
      ["webhook_endpoint.deleted", "req-delete"],
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        actor: keyId,
        workspace_id: workspaceId,
        target_type: "webhook_endpoint",
        target_id: created.id,
      });
    }
    expect(entries.map((entry) => entry.changes)).toEqual([
      {
        url: { after: "https://hooks.example.com" },
        event_types: { after: ["video.indexed"] },
      },
      {
        url: { before: "https://hooks.example.com", after: "https://other.example.net:8443" },
        event_types: {
          before: ["video.indexed"],
          after: ["video.indexed", "run.completed"],
        },
      },
      { enabled: { before: true, after: false } },
      { previous_secret_expires_at: { after: expect.any(String) } },
      {
        url: { before: "https://other.example.net:8443" },
        event_types: { before: ["video.indexed", "run.completed"] },
      },
    ]);
    const stored = JSON.stringify(
      (
        await env.DB.prepare("SELECT * FROM audit_log WHERE workspace_id = ?")
          .bind(workspaceId)
          .all()
      ).results,
    );
    for (const secret of ["receiver-token", "sig=abc", created.secret, rotated.secret, "whsec_"])
      expect(stored).not.toContain(secret);
  });

  it("records a video's deletion once, whatever repeats or races it", async () => {
    const { api, workspaceId, keyId } = await newTenant(["DELETE_VIDEOS"]);
    const [video = "", raced = ""] = await insertVideos(workspaceId, 2);
    expect((await send(api, "req-1", "DELETE", `/videos/${video}`, undefined, "del")).status).toBe(
      204,
    );
    const replay = await send(api, "req-2", "DELETE", `/videos/${video}`, undefined, "del");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    await expectProblem(
      await send(api, "req-3", "DELETE", `/videos/${video}`),
      404,
      "resource-not-found",
    );
    // Three deletions at once: each may pass the lookup, one marks the row.
    const answers = await Promise.all(
      ["req-a", "req-b", "req-c"].map((id) => send(api, id, "DELETE", `/videos/${raced}`)),
    );
    expect(answers.some((answer) => answer.status === 204)).toBe(true);

    const entries = await keyEntries(workspaceId);
    expect(entries).toEqual([
      expect.objectContaining({
        actor: keyId,
        action: "video.deleted",
        target_type: "video",
        target_id: video,
        changes: { status: { before: "completed" } },
        request_id: "req-1",
      }),
      expect.objectContaining({
        action: "video.deleted",
        target_id: raced,
        request_id: expect.stringMatching(/^req-[abc]$/),
      }),
    ]);
  });

  it("records a rulebook's deletion with its name", async () => {
    const { api, workspaceId, keyId } = await newTenant(["MANAGE_RULEBOOKS"]);
    const rulebook = await createRulebook(api, { name: "Dock rules" });
    expect((await send(api, "req-rb", "DELETE", `/rulebooks/${rulebook.id}`)).status).toBe(204);
    expect((await send(api, "req-rb-2", "DELETE", `/rulebooks/${rulebook.id}`)).status).toBe(404);
    expect(await keyEntries(workspaceId)).toEqual([
      expect.objectContaining({
        actor: keyId,
        action: "rulebook.deleted",
        target_type: "rulebook",
        target_id: rulebook.id,
        changes: { name: { before: "Dock rules" } },
        request_id: "req-rb",
      }),
    ]);
  });

  it("records the retention sweep's deletions as its own, with no request", async () => {
    const { workspaceId } = await newTenant(["READ_VIDEOS"]);
    await expectJson(
      await admin("PATCH", `/workspaces/${workspaceId}`, { retention_days: 1 }),
      200,
    );
    const old = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const [expired = ""] = await insertVideos(workspaceId, 1, { createdAt: old });
    const [kept = ""] = await insertVideos(workspaceId, 1);
    const target = recordingEnv().env;
    const report = await runSweep(createDeps(target, createPorts(target)));
    expect(report.retention.deleted).toContain(expired);

    const deletions = (await auditTrail(workspaceId, "?action=video.deleted")).map((entry) => [
      entry.actor,
      entry.target_id,
      entry.request_id,
    ]);
    expect(deletions).toEqual([["system:retention", expired, null]]);
    expect(deletions.flat()).not.toContain(kept);
  });
});
