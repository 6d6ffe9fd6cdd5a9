import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectJson, newTenant } from "../../helpers/harness";
import { registerEndpoint } from "./helpers";

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  last_delivery: unknown;
  secret?: string;
}

describe("webhook endpoints", () => {
  it("creates an endpoint and shows its Standard Webhooks secret once", async () => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    const res = await api.post("/webhooks", {
      url: "https://hooks.example.com/in",
      event_types: ["video.indexed", "run.completed"],
      description: "ingest",
    });
    const created = await expectJson<Endpoint>(res, 201);
    expect(created).toMatchObject({
      url: "https://hooks.example.com/in",
      event_types: ["video.indexed", "run.completed"],
      description: "ingest",
      enabled: true,
      disabled_reason: null,
      last_delivery: null,
    });
    expect(created.id).toMatch(/^wh_[0-9a-z]{26}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const read = await expectJson<Endpoint>(await api.get(`/webhooks/${created.id}`), 200);
    expect(read).not.toHaveProperty("secret");
    const stored = await env.DB.prepare("SELECT secret FROM webhook_endpoints WHERE id = ?")
      .bind(created.id)
      .first<{ secret: string }>();
    // Stored encrypted: neither the secret nor its key bytes appear in the row.
    expect(stored?.secret).toMatch(/^v1\./);
    expect(stored?.secret).not.toContain(created.secret?.slice(6) ?? "");
  });

  it("lists endpoints newest first, in pages, without secrets", async () => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await registerEndpoint(api)).id);
    const first = await expectJson<{ data: Endpoint[]; has_more: boolean; next_cursor: string }>(
      await api.get("/webhooks?limit=2"),
      200,
    );
    expect(first.data.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    expect(first.data.every((e) => !("secret" in e))).toBe(true);
    const second = await expectJson<{ data: Endpoint[]; has_more: boolean }>(
      await api.get(`/webhooks?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`),
      200,
    );
    expect(second.data.map((e) => e.id)).toEqual([ids[0]]);
    expect(second.has_more).toBe(false);
  });

  it("updates url, event types and description, disables and re-enables", async () => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    const { id } = await registerEndpoint(api);
    const patch = (body: unknown) => api.request("PATCH", `/webhooks/${id}`, { body });
    const changed = await expectJson<Endpoint>(
      await patch({
        url: "https://other.example.com/x",
        event_types: ["report.created"],
        description: null,
      }),
      200,
    );
    expect(changed).toMatchObject({
      url: "https://other.example.com/x",
      event_types: ["report.created"],
      description: null,
    });
    expect(await expectJson<Endpoint>(await patch({ enabled: false }), 200)).toMatchObject({
      enabled: false,
      disabled_reason: "manual",
    });
    expect(await expectJson<Endpoint>(await patch({ enabled: true }), 200)).toMatchObject({
      enabled: true,
      disabled_reason: null,
    });
    expect(await expectJson<Endpoint>(await api.get(`/webhooks/${id}`), 200)).toMatchObject({
      url: "https://other.example.com/x",
      enabled: true,
    });
  });

  it("deletes an endpoint: 204, then 404", async () => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    const { id } = await registerEndpoint(api);
    const res = await api.request("DELETE", `/webhooks/${id}`);
    expect(res.status, await res.text()).toBe(204);
    expect((await api.get(`/webhooks/${id}`)).status).toBe(404);
    expect((await api.request("DELETE", `/webhooks/${id}`)).status).toBe(404);
  });

  it("stores and answers a URL in its canonical form only", async () => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    const created = await expectJson<Endpoint>(
      await api.post("/webhooks", {
        url: "HTTPS://Hooks.Example.COM:443/in/./v1/../v2?x=1",
        event_types: ["*"],
      }),
      201,
    );
    expect(created.url).toBe("https://hooks.example.com/in/v2?x=1");
    const stored = await env.DB.prepare("SELECT url FROM webhook_endpoints WHERE id = ?")
      .bind(created.id)
      .first<string>("url");
    expect(stored).toBe(created.url);
    const patched = await expectJson<Endpoint>(
      await api.request("PATCH", `/webhooks/${created.id}`, {
        body: { url: "https://[2A00:1450:4001:082B:0:0:0:200E]:8443" },
      }),
      200,
    );
    expect(patched.url).toBe("https://[2a00:1450:4001:82b::200e]:8443/");
  });

  it("rotates the secret: a new one, shown once", async () => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    const created = await registerEndpoint(api);
    const rotated = await expectJson<Endpoint>(
      await api.post(`/webhooks/${created.id}/rotate-secret`),
      200,
    );
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.id).toBe(created.id);
  });

  it("keeps endpoints of other workspaces out of sight (404, not listed)", async () => {
    const mine = await newTenant(["MANAGE_WEBHOOKS"]);
    const theirs = await newTenant(["MANAGE_WEBHOOKS"]);
    const { id } = await registerEndpoint(theirs.api);
    expect((await mine.api.get(`/webhooks/${id}`)).status).toBe(404);
    expect(
      (await mine.api.request("PATCH", `/webhooks/${id}`, { body: { enabled: false } })).status,
    ).toBe(404);
    expect((await mine.api.request("DELETE", `/webhooks/${id}`)).status).toBe(404);
    expect((await mine.api.post(`/webhooks/${id}/rotate-secret`)).status).toBe(404);
    expect((await mine.api.get(`/webhooks/${id}/deliveries`)).status).toBe(404);
    expect((await mine.api.post(`/webhooks/${id}/test`)).status).toBe(404);
    expect(
      (await mine.api.post(`/webhooks/${id}/recover`, { since: "2026-01-01T00:00:00Z" })).status,
    ).toBe(404);
    const list = await expectJson<{ data: Endpoint[] }>(await mine.api.get("/webhooks"), 200);
    expect(list.data).toEqual([]);
    expect(await expectJson<Endpoint>(await theirs.api.get(`/webhooks/${id}`), 200)).toMatchObject({
      enabled: true,
    });
  });
});
