import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  admin,
  client,
  createKey,
  createWorkspace,
  expectJson,
  expectProblem,
  newTenant,
  ORIGIN,
  workerFetch,
} from "../../helpers/harness";
import { deleteWorkspace, eraseLater } from "../../helpers/workspace-deletion";

interface Deletion {
  id: string;
  name: string;
  status: string;
  deleted_at: string;
}

async function listedIds(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    const page: { data: { id: string }[]; next_cursor: string | null } = await expectJson(
      await admin("GET", `/workspaces?limit=100${query}`),
      200,
    );
    ids.push(...page.data.map((w) => w.id));
    cursor = page.next_cursor;
  } while (cursor !== null);
  return ids;
}

describe("DELETE /admin/v1/workspaces/{id}", () => {
  it("answers 202 with the deletion, and every key of the workspace answers 401 at once", async () => {
    const workspace = await createWorkspace({ name: "Doomed" });
    const reader = await createKey(workspace.id, { permissions: ["READ_VIDEOS"] });
    const writer = await createKey(workspace.id, { permissions: ["*"] });
    for (const key of [reader, writer])
      expect((await client(key.key).get("/videos")).status).toBe(200);

    const before = Date.now();
    const deletion = await expectJson<Deletion>(await deleteWorkspace(workspace.id), 202);
    expect(deletion).toEqual({
      id: workspace.id,
      name: "Doomed",
      status: "deleting",
      deleted_at: expect.any(String),
    });
    expect(Date.parse(deletion.deleted_at)).toBeGreaterThanOrEqual(before - 1000);

    // The keys were used a moment ago (and cached); the deletion evicted them.
    for (const key of [reader, writer]) {
      await expectProblem(await client(key.key).get("/videos"), 401, "unauthorized");
      await expectProblem(
        await client(key.key).post("/search", { query: "x" }),
        401,
        "unauthorized",
      );
    }
  });

  it("hides the workspace from the admin API and repeats the same deletion until erased", async () => {
    const workspace = await createWorkspace();
    const key = await createKey(workspace.id);
    const first = await expectJson<Deletion>(await deleteWorkspace(workspace.id), 202);

    await expectProblem(
      await admin("PATCH", `/workspaces/${workspace.id}`, { alpha_opt_in: false }),
      404,
      "resource-not-found",
    );
    expect(await listedIds()).not.toContain(workspace.id);
    await expectProblem(
      await admin("GET", `/keys?workspace_id=${workspace.id}`),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await admin("POST", "/keys", {
        workspace_id: workspace.id,
        type: "alpha",
        permissions: ["*"],
      }),
      404,
      "resource-not-found",
    );
    await expectProblem(await admin("DELETE", `/keys/${key.id}`), 404, "resource-not-found");

    // A repeat reports the deletion in progress, with the time it was first asked.
    expect(await expectJson<Deletion>(await deleteWorkspace(workspace.id), 202)).toEqual(first);

    expect(await eraseLater(workspace.id)).toBe("erased");
    await expectProblem(await deleteWorkspace(workspace.id), 404, "resource-not-found");
    const row = await env.DB.prepare("SELECT id FROM workspaces WHERE id = ?")
      .bind(workspace.id)
      .first();
    expect(row).toBeNull();
  });

  it("leaves other workspaces and their keys alone", async () => {
    const doomed = await newTenant();
    const kept = await newTenant(["READ_VIDEOS"]);
    await expectJson(await deleteWorkspace(doomed.workspaceId), 202);
    expect((await kept.api.get("/videos")).status).toBe(200);
    expect(await listedIds()).toContain(kept.workspaceId);
    expect(
      (await admin("PATCH", `/workspaces/${kept.workspaceId}`, { name: "Still here" })).status,
    ).toBe(200);
  });

  it("answers 404 for an unknown workspace", async () => {
    await expectProblem(
      await deleteWorkspace("ws_00000000000000000000000000"),
      404,
      "resource-not-found",
    );
  });

  it("answers 401 without the admin token, and an API key is not one", async () => {
    const workspace = await createWorkspace();
    const key = await createKey(workspace.id);
    for (const authorization of [undefined, "Bearer wrong", `Bearer ${key.key}`]) {
      const headers: Record<string, string> = {};
      if (authorization) headers.authorization = authorization;
      const res = await workerFetch(`${ORIGIN}/admin/v1/workspaces/${workspace.id}`, {
        method: "DELETE",
        headers,
      });
      await expectProblem(res, 401, "unauthorized");
    }
    // Nothing was deleted.
    expect((await client(key.key).get("/videos")).status).toBe(200);
  });
});
