import { describe, expect, it } from "vitest";
import {
  admin,
  createKey,
  createWorkspace,
  expectJson,
  expectProblem,
  ORIGIN,
  workerFetch,
} from "../../helpers/harness";

interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}
type Key = Record<string, unknown> & { id: string; revoked_at: string | null };

/** Follows next_cursor from the first page to the last, collecting every item. */
async function everyPage<T>(path: string, limit: number): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const query: string = `${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const page: Page<T> = await expectJson(await admin("GET", `${path}${query}`), 200);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    expect(page.has_more).toBe(page.next_cursor !== null);
    items.push(...page.data);
    cursor = page.next_cursor;
    pages++;
  } while (cursor !== null);
  return { items, pages };
}

describe("admin lists", () => {
  it("pages through every workspace newest first, each exactly once", async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createWorkspace({ name: `List ${i}` }));
    const { items, pages } = await everyPage<{ id: string; name: string }>("/workspaces", 2);
    const ids = items.map((w) => w.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort().reverse());
    for (const workspace of made) expect(items).toContainEqual(workspace);
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it("lists a workspace's keys with permissions, expiry and revocation, never a secret", async () => {
    const workspace = await createWorkspace();
    const other = await createWorkspace();
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const reader = await createKey(workspace.id, { permissions: ["READ_VIDEOS"], expiresAt });
    const revoked = await createKey(workspace.id, { type: "standard" });
    await createKey(other.id);
    expect((await admin("DELETE", `/keys/${revoked.id}`)).status).toBe(204);

    const res = await admin("GET", `/keys?workspace_id=${workspace.id}&limit=1`);
    const text = await res.clone().text();
    for (const secret of [reader.key, revoked.key]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(12));
    }
    expect(text).not.toMatch(/hash/i);
    const { items } = await everyPage<Key>(`/keys?workspace_id=${workspace.id}`, 1);
    expect(items.map((k) => k.id)).toEqual([revoked.id, reader.id]);
    expect(items[1]).toEqual({
      id: reader.id,
      workspace_id: workspace.id,
      type: "alpha",
      permissions: ["READ_VIDEOS"],
      owner_id: `user_${reader.id.slice("key_".length)}`,
      expires_at: expiresAt,
      revoked_at: null,
      created_at: expect.any(String),
    });
    expect(items[0]).toMatchObject({ type: "standard", permissions: ["*"] });
    expect(Date.parse(items[0]?.revoked_at ?? "")).not.toBeNaN();
  });

  it("refuses a missing workspace_id, a bad limit and a foreign cursor, naming the field", async () => {
    const workspace = await createWorkspace();
    const cases: [string, string][] = [
      ["/keys", "workspace_id"],
      [`/keys?workspace_id=${workspace.id}&limit=0`, "limit"],
      ["/workspaces?limit=101", "limit"],
      ["/workspaces?cursor=abc.def", "cursor"],
    ];
    for (const [path, field] of cases) {
      const problem = await expectProblem(await admin("GET", path), 400, "invalid-request");
      expect(
        problem.errors?.map((e) => e.path),
        path,
      ).toContain(field);
    }
    // A cursor of one workspace's key list does not page another's.
    await createKey(workspace.id);
    await createKey(workspace.id);
    const first: Page<Key> = await expectJson(
      await admin("GET", `/keys?workspace_id=${workspace.id}&limit=1`),
      200,
    );
    const other = await createWorkspace();
    await expectProblem(
      await admin(
        "GET",
        `/keys?workspace_id=${other.id}&cursor=${encodeURIComponent(first.next_cursor ?? "")}`,
      ),
      400,
      "invalid-request",
    );
  });

  it("answers 404 for the keys of an unknown workspace and 401 without the token", async () => {
    await expectProblem(
      await admin("GET", "/keys?workspace_id=ws_00000000000000000000000000"),
      404,
      "resource-not-found",
    );
    for (const path of ["/workspaces", "/keys?workspace_id=x"]) {
      const res = await workerFetch(`${ORIGIN}/admin/v1${path}`, {
        headers: { authorization: "Bearer wrong" },
      });
      await expectProblem(res, 401, "unauthorized");
    }
  });

  it("documents both lists in the admin OpenAPI document", async () => {
    const doc = await expectJson<{ paths: Record<string, Record<string, unknown>> }>(
      await admin("GET", "/openapi.json"),
      200,
    );
    expect(doc.paths["/workspaces"]).toHaveProperty("get");
    expect(doc.paths["/keys"]).toHaveProperty("get");
  });
});
