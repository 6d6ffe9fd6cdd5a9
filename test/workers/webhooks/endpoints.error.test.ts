import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectProblem, newTenant } from "../../helpers/harness";
import { registerEndpoint } from "./helpers";

async function fieldsOf(res: Response): Promise<string[]> {
  const problem = await expectProblem(res, 400, "invalid-request");
  return (problem.errors ?? []).map((e) => e.path);
}

describe("webhook endpoint validation", () => {
  it.each([
    ["no url", { event_types: ["*"] }, "url"],
    ["no event_types", { url: "https://a.example.com/" }, "event_types"],
    ["empty event_types", { url: "https://a.example.com/", event_types: [] }, "event_types"],
    [
      "an unknown event type",
      { url: "https://a.example.com/", event_types: ["video.exploded"] },
      "event_types[0]",
    ],
    [
      "* with others",
      { url: "https://a.example.com/", event_types: ["*", "video.indexed"] },
      "event_types",
    ],
    [
      "a repeated type",
      { url: "https://a.example.com/", event_types: ["run.failed", "run.failed"] },
      "event_types",
    ],
    ["a non-string url", { url: 42, event_types: ["*"] }, "url"],
    [
      "an unknown field",
      { url: "https://a.example.com/", event_types: ["*"], secret: "x" },
      "secret",
    ],
    [
      "a long description",
      { url: "https://a.example.com/", event_types: ["*"], description: "x".repeat(501) },
      "description",
    ],
  ])("POST /webhooks with %s answers 400 naming the field", async (_, body, field) => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    expect(await fieldsOf(await api.post("/webhooks", body))).toContain(field);
  });

  it.each([
    ["CR/LF", "https://a.example.com/hook\r\nX-Injected: 1"],
    ["a tab", "https://a.example.com/ho\tok"],
    ["a leading space", " https://a.example.com/hook"],
    ["a trailing newline", "https://a.example.com/hook\n"],
    ["a space in the path", "https://a.example.com/my hook"],
    ["NUL in the host", "https://a.exa\u0000mple.com/"],
    ["a no-break space", "https://a.example.com/\u00a0"],
    ["DEL", "https://a.example.com/\u007f"],
  ])("refuses a url with %s, naming url, on POST and PATCH", async (_, url) => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    const created = await api.post("/webhooks", { url, event_types: ["*"] });
    const problem = await expectProblem(created, 400, "invalid-request");
    expect(problem.errors).toEqual([
      { path: "url", message: "must not contain whitespace or control characters" },
    ]);
    const { id } = await registerEndpoint(api);
    const patched = await api.request("PATCH", `/webhooks/${id}`, { body: { url } });
    expect(await fieldsOf(patched)).toEqual(["url"]);
  });

  it("PATCH names the field it refuses, and an empty PATCH is refused", async () => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    const { id } = await registerEndpoint(api);
    const patch = (body: unknown) => api.request("PATCH", `/webhooks/${id}`, { body });
    expect(await fieldsOf(await patch({ url: "https://10.0.0.7/" }))).toEqual(["url"]);
    expect(await fieldsOf(await patch({ enabled: "yes" }))).toEqual(["enabled"]);
    expect(await fieldsOf(await patch({ event_types: ["nope"] }))).toEqual(["event_types[0]"]);
    expect(await fieldsOf(await patch({}))).toEqual(["body"]);
  });

  it("answers 404 for unknown endpoints and deliveries", async () => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    const missing = "wh_00000000000000000000000000";
    await expectProblem(await api.get(`/webhooks/${missing}`), 404, "resource-not-found");
    const { id } = await registerEndpoint(api);
    await expectProblem(
      await api.post(`/webhooks/${id}/deliveries/delivery_00000000000000000000000000/redeliver`),
      404,
      "resource-not-found",
    );
  });

  it("refuses a malformed recovery window and a bad delivery filter", async () => {
    const { api } = await newTenant(["MANAGE_WEBHOOKS"]);
    const { id } = await registerEndpoint(api);
    expect(await fieldsOf(await api.post(`/webhooks/${id}/recover`, {}))).toEqual(["since"]);
    expect(
      await fieldsOf(
        await api.post(`/webhooks/${id}/recover`, {
          since: "2026-05-02T00:00:00Z",
          until: "2026-05-01T00:00:00Z",
        }),
      ),
    ).toEqual(["until"]);
    expect(await fieldsOf(await api.get(`/webhooks/${id}/deliveries?status=lost`))).toEqual([
      "status",
    ]);
  });

  it("answers 422 for an Idempotency-Key reused with another body or endpoint, changing nothing", async () => {
    const { api, workspaceId } = await newTenant(["MANAGE_WEBHOOKS"]);
    const key = { "Idempotency-Key": "reused" };
    const body = { url: "https://a.example.com/", event_types: ["*"] };
    expect((await api.post("/webhooks", body, key)).status).toBe(201);
    const other = { ...body, url: "https://b.example.com/" };
    await expectProblem(await api.post("/webhooks", other, key), 422, "idempotency-key-mismatch");
    const count = await env.DB.prepare(
      "SELECT count(*) AS n FROM webhook_endpoints WHERE workspace_id = ?",
    )
      .bind(workspaceId)
      .first<number>("n");
    expect(count).toBe(1);

    const one = await registerEndpoint(api);
    const two = await registerEndpoint(api);
    const rotate = { "Idempotency-Key": "rotate" };
    expect((await api.post(`/webhooks/${one.id}/rotate-secret`, undefined, rotate)).status).toBe(
      200,
    );
    await expectProblem(
      await api.post(`/webhooks/${two.id}/rotate-secret`, undefined, rotate),
      422,
      "idempotency-key-mismatch",
    );
    const secrets = await env.DB.prepare(
      "SELECT previous_secret FROM webhook_endpoints WHERE id = ?",
    )
      .bind(two.id)
      .first<string | null>("previous_secret");
    expect(secrets).toBeNull();
  });
});
