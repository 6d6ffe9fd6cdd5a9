import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { ownerOfKey } from "../../../src/domain/rulebooks";
import { RETENTION_MS } from "../../../src/durable-objects/idempotency-key";
import { idempotencyScope } from "../../../src/middleware/idempotency";
import { expectProblem, newTenant } from "../../helpers/harness";
import { testFetch } from "../../helpers/test-app";

async function countVideos(workspaceId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM videos WHERE workspace_id = ?")
    .bind(workspaceId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

function post(key: string, body: unknown, idempotencyKey?: string, path = "/test-widgets") {
  const headers: Record<string, string> = {
    authorization: `Bearer ${key}`,
    "content-type": "application/json",
  };
  if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
  return testFetch(path, { method: "POST", headers, body: JSON.stringify(body) });
}

describe("Idempotency-Key (spec sections 4 and 8)", () => {
  it("replays the first response for the same key and request", async () => {
    const { api, workspaceId } = await newTenant();
    const first = await post(api.key, { name: "a" }, "k-1");
    const firstBody = await first.text();
    expect(first.status, firstBody).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await post(api.key, { name: "a" }, "k-1");
    expect(again.status).toBe(201);
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toMatch(/application\/json/);
    expect(await countVideos(workspaceId)).toBe(1);
  });

  it("compares payload and path, not the query string: a changed query replays", async () => {
    const { api, workspaceId } = await newTenant();
    const first = await post(api.key, { name: "q" }, "k-query", "/test-widgets");
    const again = await post(api.key, { name: "q" }, "k-query", "/test-widgets?expand[]=x");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    expect(await countVideos(workspaceId)).toBe(1);
  });

  it("treats the same JSON with other key order or spacing as the same request", async () => {
    const { api, workspaceId } = await newTenant();
    const headers = {
      authorization: `Bearer ${api.key}`,
      "content-type": "application/json",
      "idempotency-key": "k",
    };
    const a = await testFetch("/test-widgets", {
      method: "POST",
      headers,
      body: '{"name":"a","fail":false}',
    });
    const b = await testFetch("/test-widgets", {
      method: "POST",
      headers,
      body: '{ "fail": false,\n "name": "a" }',
    });
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(await b.text()).toBe(await a.text());
    expect(await countVideos(workspaceId)).toBe(1);
  });

  it("answers 422 when the key is reused with a different body", async () => {
    const { api, workspaceId } = await newTenant();
    expect((await post(api.key, { name: "a" }, "k-2")).status).toBe(201);
    await expectProblem(await post(api.key, { name: "b" }, "k-2"), 422, "idempotency-key-mismatch");
    expect(await countVideos(workspaceId)).toBe(1);
  });

  it("answers 400 for a key over 255 characters, and accepts 255", async () => {
    const { api } = await newTenant();
    const problem = await expectProblem(
      await post(api.key, { name: "a" }, "x".repeat(256)),
      400,
      "invalid-request",
    );
    expect(problem.errors?.[0]?.path).toBe("Idempotency-Key");
    expect((await post(api.key, { name: "a" }, "x".repeat(255))).status).toBe(201);
  });

  it("scopes keys per workspace", async () => {
    const one = await newTenant();
    const two = await newTenant();
    expect((await post(one.api.key, { name: "a" }, "shared")).status).toBe(201);
    const other = await post(two.api.key, { name: "b" }, "shared");
    expect(other.status).toBe(201);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    expect(await countVideos(two.workspaceId)).toBe(1);
  });

  it("does not keep failed requests: the key can be used again", async () => {
    const { api, workspaceId } = await newTenant();
    await expectProblem(await post(api.key, {}, "k-3"), 400, "invalid-request");
    expect((await post(api.key, { name: "fixed" }, "k-3")).status).toBe(201);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const crashed = await post(api.key, { name: "c", fail: true }, "k-4");
    expect(crashed.status).toBe(500);
    logged.mockRestore();
    expect((await post(api.key, { name: "c" }, "k-4")).status).toBe(201);
    expect(await countVideos(workspaceId)).toBe(2);
  });

  it("creates one resource for N parallel requests with one key", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 8 }), async (n) => {
        const { api, workspaceId } = await newTenant();
        const responses = await Promise.all(
          Array.from({ length: n }, () => post(api.key, { name: "p" }, "burst")),
        );
        const bodies = await Promise.all(responses.map((res) => res.text()));
        expect(responses.map((res) => res.status)).toEqual(Array(n).fill(201));
        expect(new Set(bodies).size).toBe(1);
        expect(
          responses.filter((res) => res.headers.get("idempotent-replayed") === null),
        ).toHaveLength(1);
        expect(await countVideos(workspaceId)).toBe(1);
      }),
      { numRuns: 5 },
    );
  });

  it("forgets a key after 24 hours, through the alarm", async () => {
    const { api, workspaceId, keyId } = await newTenant();
    expect((await post(api.key, { name: "a" }, "old")).status).toBe(201);
    const stub = env.IDEMPOTENCY_KEYS.getByName(
      idempotencyScope(workspaceId, ownerOfKey(keyId), "old"),
    );
    await runInDurableObject(stub, async (_instance, state) => {
      const record = await state.storage.get<{ createdAt: number }>("record");
      expect(record).toBeDefined();
      await state.storage.put("record", { ...record, createdAt: Date.now() - RETENTION_MS - 1 });
      expect(await state.storage.getAlarm()).not.toBeNull();
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await runInDurableObject(stub, async (_instance, state) => {
      expect(await state.storage.get("record")).toBeUndefined();
    });
    const fresh = await post(api.key, { name: "b" }, "old");
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
  });

  it("keeps a key that is not yet due when the alarm fires early", async () => {
    const { api, workspaceId, keyId } = await newTenant();
    expect((await post(api.key, { name: "a" }, "young")).status).toBe(201);
    const stub = env.IDEMPOTENCY_KEYS.getByName(
      idempotencyScope(workspaceId, ownerOfKey(keyId), "young"),
    );
    await runDurableObjectAlarm(stub);
    const again = await post(api.key, { name: "a" }, "young");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  it("keeps the stored answer sealed, and refuses a replay it can no longer open", async () => {
    const { api, workspaceId, keyId } = await newTenant();
    const first = await post(api.key, { name: "sealed-name" }, "sealed");
    expect(first.status).toBe(201);
    const stub = env.IDEMPOTENCY_KEYS.getByName(
      idempotencyScope(workspaceId, ownerOfKey(keyId), "sealed"),
    );
    await runInDurableObject(stub, async (_instance, state) => {
      // The kept body lives in chunks beside the record; it is stored only as sealed.
      const body = await state.storage.get<string>("body:0");
      expect(body).toMatch(/^v1\./);
      expect(body).not.toContain("sealed-name");
      const record = await state.storage.get<{ response: { chunks: number } }>("record");
      expect(record?.response.chunks).toBe(1);
      await state.storage.put("body:0", "v1.AAAA.AAAA");
    });
    await expectProblem(await post(api.key, { name: "sealed-name" }, "sealed"), 409, "conflict");
    expect(await countVideos(workspaceId)).toBe(1);
  });
});
