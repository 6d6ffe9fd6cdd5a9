import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../../src/app";
import { createPorts } from "../../../src/ports";
import {
  admin,
  client,
  createKey,
  createWorkspace,
  expectJson,
  expectProblem,
  ORIGIN,
  workerFetch,
} from "../../helpers/harness";

describe("admin API (the spec's decisions on the admin API)", () => {
  it("creates a workspace and an alpha key that works at once", async () => {
    const workspace = await createWorkspace({ name: "Acme", alphaOptIn: true });
    expect(workspace).toMatchObject({ name: "Acme", alpha_opt_in: true });
    expect(workspace.id).toMatch(/^ws_[0-9a-z]{26}$/);
    expect(Date.parse(workspace.created_at)).not.toBeNaN();
    const key = await createKey(workspace.id, { permissions: ["READ_VIDEOS"] });
    expect(key).toMatchObject({
      workspace_id: workspace.id,
      type: "alpha",
      permissions: ["READ_VIDEOS"],
      expires_at: null,
    });
    expect(key.key).toMatch(/^vas_[0-9a-f]{48}$/);
    expect((await client(key.key).get("/videos")).status).toBe(200);
  });

  it("stores only a hash of the secret", async () => {
    const workspace = await createWorkspace();
    const key = await createKey(workspace.id);
    const row = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(key.id).first();
    expect(JSON.stringify(row)).not.toContain(key.key);
    expect(JSON.stringify(row)).not.toContain(key.key.slice(12));
  });

  it("switches alpha opt-in with PATCH, effective immediately", async () => {
    const workspace = await createWorkspace({ alphaOptIn: false });
    const key = await createKey(workspace.id);
    await expectProblem(await client(key.key).get("/videos"), 403, "forbidden");
    const patched = await expectJson(
      await admin("PATCH", `/workspaces/${workspace.id}`, { alpha_opt_in: true }),
      200,
    );
    expect(patched).toMatchObject({ id: workspace.id, alpha_opt_in: true });
    expect((await client(key.key).get("/videos")).status).toBe(200);
    await admin("PATCH", `/workspaces/${workspace.id}`, { alpha_opt_in: false });
    await expectProblem(await client(key.key).get("/videos"), 403, "forbidden");
  });

  it("keeps location and device tags private unless a workspace opts in", async () => {
    const closed = await createWorkspace();
    expect(closed).toMatchObject({ index_private_tags: false });
    const opened = await expectJson(
      await admin("POST", "/workspaces", { name: "Survey", index_private_tags: true }),
      201,
    );
    expect(opened).toMatchObject({ name: "Survey", alpha_opt_in: false, index_private_tags: true });
    const patched = await expectJson(
      await admin("PATCH", `/workspaces/${closed.id}`, { index_private_tags: true }),
      200,
    );
    expect(patched).toMatchObject({ alpha_opt_in: true, index_private_tags: true });
    const row = await env.DB.prepare("SELECT index_private_tags FROM workspaces WHERE id = ?")
      .bind(closed.id)
      .first<{ index_private_tags: number }>();
    expect(row?.index_private_tags).toBe(1);
    const problem = await expectProblem(
      await admin("PATCH", `/workspaces/${closed.id}`, { index_private_tags: "yes" }),
      400,
      "invalid-request",
    );
    expect(problem.errors?.map((e) => e.path)).toEqual(["index_private_tags"]);
  });

  it("revokes a key: 204, then 401 from then on", async () => {
    const workspace = await createWorkspace();
    const key = await createKey(workspace.id);
    expect((await client(key.key).get("/videos")).status).toBe(200);
    expect((await admin("DELETE", `/keys/${key.id}`)).status).toBe(204);
    await expectProblem(await client(key.key).get("/videos"), 401, "unauthorized");
    expect((await admin("DELETE", `/keys/${key.id}`)).status).toBe(204);
  });

  it("honours expires_at", async () => {
    const workspace = await createWorkspace();
    const soon = new Date(Date.now() + 60_000).toISOString();
    const key = await createKey(workspace.id, { expiresAt: soon });
    expect(key).toMatchObject({ expires_at: soon });
    expect((await client(key.key).get("/videos")).status).toBe(200);
    // A key already expired when it is made would only ever answer 401: refused, naming the
    // field, and nothing is stored.
    for (const pastAt of [new Date(Date.now() - 1000).toISOString(), "2001-01-01T00:00:00Z"]) {
      const problem = await expectProblem(
        await admin("POST", "/keys", {
          workspace_id: workspace.id,
          type: "alpha",
          permissions: ["*"],
          expires_at: pastAt,
        }),
        400,
        "invalid-request",
      );
      expect(problem.errors).toEqual([{ path: "expires_at", message: "must be in the future" }]);
    }
    const listed = await expectJson<{ data: { id: string }[] }>(
      await admin("GET", `/keys?workspace_id=${workspace.id}`),
      200,
    );
    expect(listed.data.map((k) => k.id)).toEqual([key.id]);
  });

  it("creates a key with no permissions, which every route refuses with 403", async () => {
    const workspace = await createWorkspace();
    const none = await expectJson<{ key: string; permissions: string[] }>(
      await admin("POST", "/keys", { workspace_id: workspace.id, type: "alpha", permissions: [] }),
      201,
    );
    expect(none.permissions).toEqual([]);
    await expectProblem(await client(none.key).get("/videos"), 403, "forbidden");
    await expectProblem(await client(none.key).post("/search", { query: "x" }), 403, "forbidden");
  });

  it("validates bodies and names the field", async () => {
    const workspace = await createWorkspace();
    const cases: [string, string, unknown, string][] = [
      ["POST", "/workspaces", { alpha_opt_in: true }, "name"],
      ["POST", "/workspaces", { name: "x", alpha_opt_in: "yes" }, "alpha_opt_in"],
      ["POST", "/workspaces", { name: "x", extra: 1 }, "extra"],
      ["POST", "/keys", { workspace_id: workspace.id, type: "root", permissions: ["*"] }, "type"],
      [
        "POST",
        "/keys",
        { workspace_id: workspace.id, type: "alpha", permissions: ["READ_ALL"] },
        "permissions[0]",
      ],
      [
        "POST",
        "/keys",
        { workspace_id: workspace.id, type: "alpha", permissions: ["*"], expires_at: "soon" },
        "expires_at",
      ],
      ["PATCH", `/workspaces/${workspace.id}`, {}, "alpha_opt_in"],
    ];
    for (const [method, path, body, field] of cases) {
      const problem = await expectProblem(await admin(method, path, body), 400, "invalid-request");
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(body),
      ).toContain(field);
    }
  });

  it("answers 404 for unknown workspaces and keys", async () => {
    await expectProblem(
      await admin("POST", "/keys", {
        workspace_id: "ws_00000000000000000000000000",
        type: "alpha",
        permissions: ["*"],
      }),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await admin("PATCH", "/workspaces/ws_00000000000000000000000000", { alpha_opt_in: true }),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await admin("DELETE", "/keys/key_00000000000000000000000000"),
      404,
      "resource-not-found",
    );
  });

  it("answers 401 without the admin token, and API keys are not admin tokens", async () => {
    const workspace = await createWorkspace();
    const key = await createKey(workspace.id);
    for (const authorization of [undefined, "Bearer wrong", `Bearer ${key.key}`]) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (authorization) headers.authorization = authorization;
      const res = await workerFetch(`${ORIGIN}/admin/v1/workspaces`, {
        method: "POST",
        headers,
        body: '{"name":"x"}',
      });
      await expectProblem(res, 401, "unauthorized");
    }
  });

  it("does not exist when no ADMIN_TOKEN is configured", async () => {
    const app = createApp({ ports: createPorts(env) });
    const res = await app.fetch(
      new Request(`${ORIGIN}/admin/v1/workspaces`, {
        method: "POST",
        headers: { authorization: "Bearer anything", "content-type": "application/json" },
        body: '{"name":"x"}',
      }),
      { ...env, ADMIN_TOKEN: undefined },
      createExecutionContext(),
    );
    await expectProblem(res, 404, "resource-not-found");
  });
});
