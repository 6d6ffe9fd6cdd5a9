import fc from "fast-check";
import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_JSON_BODY_BYTES } from "../../../src/app";
import { REQUEST_ID_PATTERN, requestIdFor } from "../../../src/lib/request-id";
import type { HonoEnv } from "../../../src/middleware/hono-env";
import { requestId } from "../../../src/middleware/request-id";
import {
  admin,
  client,
  expectJson,
  expectProblem,
  newTenant,
  ORIGIN,
  workerFetch,
} from "../../helpers/harness";
import { testFetch } from "../../helpers/test-app";
import { putToTarget, startUpload } from "../../helpers/uploads";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The id a response carries, asserting it has one. */
function idOf(res: Response): string {
  const id = res.headers.get("x-request-id");
  expect(id, `${res.status} ${res.url} has no X-Request-Id`).not.toBeNull();
  return id ?? "";
}

/** Asserts a problem answer whose body names the request id of its header; returns the id. */
async function problemId(res: Response, status: number, code: string): Promise<string> {
  const id = idOf(res);
  const problem = await expectProblem(res, status, code);
  expect(problem.request_id).toBe(id);
  return id;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("X-Request-Id on every response", () => {
  it("gives each successful request a fresh id", async () => {
    const { api } = await newTenant();
    const first = await api.get("/videos");
    const second = await api.get("/videos");
    await expectJson(first, 200);
    await expectJson(second, 200);
    expect(idOf(first)).toMatch(UUID);
    expect(idOf(second)).toMatch(UUID);
    expect(idOf(first)).not.toBe(idOf(second));
  });

  it("carries it on pages outside the API: health, docs redirect, problem types", async () => {
    for (const path of ["/healthz", "/", "/problems/invalid-request"]) {
      const res = await workerFetch(`${ORIGIN}${path}`, { redirect: "manual" });
      expect(idOf(res), path).toMatch(UUID);
    }
  });

  it("carries it on 404 for unknown routes, 405 and 401, in header and body alike", async () => {
    const { api } = await newTenant();
    await problemId(await workerFetch(`${ORIGIN}/nowhere`), 404, "resource-not-found");
    await problemId(await api.get("/nothing-here"), 404, "resource-not-found");
    await problemId(await api.request("DELETE", "/videos"), 405, "method-not-allowed");
    await problemId(await client(null).get("/videos"), 401, "unauthorized");
    await problemId(await client("vas_not_a_key").get("/videos"), 401, "unauthorized");
    await problemId(await admin("POST", "/workspaces", { name: 7 }), 400, "invalid-request");
    const noAdmin = await workerFetch(`${ORIGIN}/admin/v1/workspaces`, { method: "POST" });
    await problemId(noAdmin, 401, "unauthorized");
  });

  it("carries it on validation failures, 413 and unexpected errors", async () => {
    const { api } = await newTenant();
    await problemId(await api.get("/videos?limit=0"), 400, "invalid-request");
    const headers = { authorization: `Bearer ${api.key}`, "content-type": "application/json" };
    const big = JSON.stringify({ name: "x".repeat(MAX_JSON_BODY_BYTES + 10) });
    await problemId(
      await testFetch("/test-widgets", { method: "POST", headers, body: big }),
      413,
      "payload-too-large",
    );
    vi.spyOn(console, "error").mockImplementation(() => {});
    const exploded = await testFetch("/test-explode", { headers });
    await problemId(exploded, 500, "internal-error");
  });

  it("carries it on CORS preflights and the storage gateway's answers", async () => {
    const { api } = await newTenant();
    const session = await startUpload(api, "clip.mp4", 16);
    const target = session.targets[0];
    if (!target) throw new Error(`no target: ${JSON.stringify(session)}`);
    const preflight = await workerFetch(target.url, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "PUT" },
    });
    expect(preflight.status).toBe(204);
    expect(idOf(preflight)).toMatch(UUID);
    const put = await putToTarget(target, "0123456789abcdef");
    expect(put.status, await put.clone().text()).toBe(200);
    expect(idOf(put)).toMatch(UUID);
    const forged = await putToTarget({ ...target, url: `${target.url}x` }, "0123456789abcdef");
    expect(forged.status).toBe(403);
    expect(idOf(forged)).toMatch(UUID);
    const apiPreflight = await workerFetch(`${ORIGIN}/api/v1alpha1/videos`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST" },
    });
    expect(idOf(apiPreflight)).toMatch(UUID);
  });
  it("sets it on a response whose headers cannot change", async () => {
    const app = new Hono<HonoEnv>();
    app.use("*", requestId);
    // Response.redirect answers immutable headers, like a response passed through from fetch.
    app.get("/moved", () => Response.redirect("https://example.com/", 302));
    const res = await app.request("/moved", { headers: { "x-request-id": "kept-1" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://example.com/");
    expect(idOf(res)).toBe("kept-1");
  });
});

describe("a client's own X-Request-Id", () => {
  it("is kept when it is safe, on success and in problem documents", async () => {
    const { api } = await newTenant();
    for (const id of ["req_01JD3M6T8Y", "4bf92f3577b34da6a3ce929d0e0e4736", "a", "x".repeat(128)]) {
      const ok = await api.get("/videos", { "x-request-id": id });
      await expectJson(ok, 200);
      expect(idOf(ok)).toBe(id);
      const refused = await api.get("/videos?limit=0", { "x-request-id": id });
      expect(await problemId(refused, 400, "invalid-request")).toBe(id);
    }
  });

  it("is replaced by a fresh id when it is too long or holds other characters", async () => {
    const { api } = await newTenant();
    for (const id of ["x".repeat(129), "a b", "a/b", "ünïcode", "<script>", 'a"b', "a,b"]) {
      const res = await api.get("/videos", { "x-request-id": id });
      await expectJson(res, 200);
      expect(idOf(res), id).toMatch(UUID);
    }
  });

  it("comes back as sent exactly when it matches the rule, and safe whatever was sent", async () => {
    // Any ASCII value a Request header can hold (no CR, LF or NUL; fetch trims spaces).
    const headerValue = fc
      .string({ unit: fc.integer({ min: 1, max: 0x7f }).map((c) => String.fromCharCode(c)) })
      .filter((value) => !/[\r\n]/.test(value))
      .map((value) => value.trim());
    const chosen = fc.stringMatching(REQUEST_ID_PATTERN);
    await fc.assert(
      fc.asyncProperty(fc.oneof(headerValue, chosen), async (sent) => {
        const res = await workerFetch(`${ORIGIN}/healthz`, { headers: { "x-request-id": sent } });
        const echoed = idOf(res);
        expect(echoed).toMatch(REQUEST_ID_PATTERN);
        expect(echoed === sent).toBe(REQUEST_ID_PATTERN.test(sent));
      }),
      { numRuns: 60 },
    );
  });

  it("is kept exactly when it matches the rule, for any string at all", () => {
    // Beyond what a header can carry: unicode, controls, any length.
    const anything = fc.oneof(
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.stringMatching(REQUEST_ID_PATTERN),
      fc.stringMatching(/^[A-Za-z0-9._:-]{120,140}$/),
    );
    fc.assert(
      fc.property(anything, (sent) => {
        const used = requestIdFor(sent);
        expect(used).toMatch(REQUEST_ID_PATTERN);
        expect(used === sent).toBe(REQUEST_ID_PATTERN.test(sent));
      }),
      { numRuns: 2000 },
    );
    expect(requestIdFor(undefined)).toMatch(UUID);
  });

  it("is on the log line of a request that failed", async () => {
    const { api } = await newTenant();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await testFetch("/test-explode", {
      headers: { authorization: `Bearer ${api.key}`, "x-request-id": "trace-me-500" },
    });
    expect(await problemId(res, 500, "internal-error")).toBe("trace-me-500");
    expect(logged).toHaveBeenCalledOnce();
    const line = JSON.parse(String(logged.mock.calls[0]?.[0])) as Record<string, unknown>;
    expect(line.request_id).toBe("trace-me-500");
    expect(String(line.error)).toContain("secret internals");
    expect(JSON.stringify(line)).not.toContain(api.key);
  });
});
