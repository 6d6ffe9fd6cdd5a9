import { describe, expect, it, vi } from "vitest";
import { expectProblem, newTenant, ORIGIN, workerFetch } from "../../helpers/harness";
import { testFetch } from "../../helpers/test-app";

describe("the error contract (the spec's decisions on errors)", () => {
  it("answers an unknown route with a problem 404", async () => {
    const { api } = await newTenant();
    await expectProblem(await api.get("/nothing-here"), 404, "resource-not-found");
    await expectProblem(await workerFetch(`${ORIGIN}/nowhere`), 404, "resource-not-found");
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const { api } = await newTenant();
    const res = await api.request("DELETE", "/videos");
    expect(res.headers.get("allow")?.split(", ").sort()).toEqual(["GET", "POST"]);
    await expectProblem(res, 405, "method-not-allowed");
  });

  it("names the query field that fails validation", async () => {
    const { api } = await newTenant();
    for (const limit of ["0", "101", "abc", "2.5"]) {
      const problem = await expectProblem(
        await api.get(`/videos?limit=${limit}`),
        400,
        "invalid-request",
      );
      expect(problem.errors?.map((e) => e.path)).toEqual(["limit"]);
    }
    const problem = await expectProblem(
      await api.get("/videos?status=done"),
      400,
      "invalid-request",
    );
    expect(problem.errors?.[0]?.path).toBe("status");
  });

  it("refuses malformed JSON, unknown fields and wrong media types", async () => {
    const { api } = await newTenant();
    const headers = { authorization: `Bearer ${api.key}`, "content-type": "application/json" };
    const bad = await testFetch("/test-widgets", { method: "POST", headers, body: "{nope" });
    const badProblem = await expectProblem(bad, 400, "invalid-request");
    expect(badProblem.errors?.[0]?.path).toBe("body");
    const unknown = await testFetch("/test-widgets", {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "a", colour: "red" }),
    });
    const unknownProblem = await expectProblem(unknown, 400, "invalid-request");
    expect(unknownProblem.errors).toEqual([{ path: "colour", message: "is not a known field" }]);
    const missing = await testFetch("/test-widgets", { method: "POST", headers, body: "{}" });
    expect((await expectProblem(missing, 400, "invalid-request")).errors?.[0]?.path).toBe("name");
    const text = await testFetch("/test-widgets", {
      method: "POST",
      headers: { ...headers, "content-type": "text/plain" },
      body: "name=a",
    });
    await expectProblem(text, 415, "unsupported-media-type");
  });

  it("reads an empty body sent as JSON as no fields, not as malformed JSON", async () => {
    const { api } = await newTenant();
    const headers = { authorization: `Bearer ${api.key}`, "content-type": "application/json" };
    const required = await testFetch("/test-widgets", { method: "POST", headers });
    expect((await expectProblem(required, 400, "invalid-request")).errors?.[0]?.path).toBe("name");
    const created = await api.post("/videos", { filename: "a.mp4", file_size: 10 });
    const { video_id } = (await created.json()) as { video_id: string };
    // Completing without a body is the bodiless call it is: here, nothing was uploaded yet.
    const complete = await testFetch(`/videos/${video_id}/upload/complete`, {
      method: "POST",
      headers: { ...headers, "content-length": "0" },
    });
    await expectProblem(complete, 409, "upload-incomplete");
  });

  it("answers 413 for a body over the limit", async () => {
    const { api } = await newTenant();
    const res = await testFetch("/test-widgets", {
      method: "POST",
      headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) }),
    });
    await expectProblem(res, 413, "payload-too-large");
  });

  it("answers an uncaught exception with a 500 that reveals nothing", async () => {
    const { api } = await newTenant();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await testFetch("/test-explode", {
      headers: { authorization: `Bearer ${api.key}` },
    });
    const body = await res.clone().text();
    const problem = await expectProblem(res, 500, "internal-error");
    expect(body).not.toMatch(/secret|D1_ERROR|app\.ts/);
    expect(problem.request_id).toBe(res.headers.get("x-request-id"));
    expect(logged).toHaveBeenCalledOnce();
    expect(String(logged.mock.calls[0]?.[0])).toContain(String(problem.request_id));
    logged.mockRestore();
  });

  it("links every problem type to a description", async () => {
    const res = await workerFetch(`${ORIGIN}/problems/invalid-request`);
    expect(await res.json()).toMatchObject({ code: "invalid-request", status: 400 });
    await expectProblem(await workerFetch(`${ORIGIN}/problems/made-up`), 404, "resource-not-found");
  });
});

describe("workspace identity comes from the key (the spec's Authentication section)", () => {
  it("refuses tenant_id, organization_id and user_id in the query", async () => {
    const { api } = await newTenant();
    for (const field of ["tenant_id", "organization_id", "user_id"]) {
      const problem = await expectProblem(
        await api.get(`/videos?${field}=x`),
        400,
        "invalid-request",
      );
      expect(problem.errors?.[0]?.path).toBe(field);
    }
  });

  it("refuses them in a JSON body", async () => {
    const { api } = await newTenant();
    const res = await testFetch("/test-widgets", {
      method: "POST",
      headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "a", organization_id: "org_1" }),
    });
    const problem = await expectProblem(res, 400, "invalid-request");
    expect(problem.errors?.[0]?.path).toBe("organization_id");
  });
});
