import { afterEach, describe, expect, it, vi } from "vitest";
import type { RateLimitOverrides } from "../../../src/domain/rate-limits";
import { admin, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import { SAFETY_PROFILE } from "../../helpers/runs";

/** A profile that can be created, named. */
const profile = (name: string) => ({ ...SAFETY_PROFILE, name });

/** A fresh workspace whose operator set these quotas (per 60 s). */
async function limitedTenant(rateLimits: RateLimitOverrides) {
  const tenant = await newTenant();
  await expectJson(
    await admin("PATCH", `/workspaces/${tenant.workspaceId}`, { rate_limits: rateLimits }),
    200,
  );
  return tenant;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("past a workspace's quota", () => {
  it("answers 429 with Retry-After and a problem naming the class, without running the request", async () => {
    const { api } = await limitedTenant({ writes: 2 });
    for (const name of ["first", "second"])
      await expectJson(await api.post("/profiles", profile(name)), 201);
    const refused = await api.post("/profiles", profile("third"));
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(refused.headers.get("ratelimit-policy")).toBe('"writes";q=2;w=60');
    expect(refused.headers.get("ratelimit")).toBe(`"writes";r=0;t=${retryAfter}`);
    const problem = await expectProblem(refused, 429, "rate-limited");
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(problem.type).toBe("/problems/rate-limited");
    expect(problem.detail).toContain(`2 writes requests`);
    expect(problem.detail).toContain(`retry in ${retryAfter} s`);
    const listed = await expectJson<{ data: { name: string }[] }>(await api.get("/profiles"), 200);
    expect(listed.data.map((head) => head.name).sort()).toEqual(["first", "second"]);
  });

  it("counts each class apart: a workspace out of searches still reads and writes", async () => {
    const { api } = await limitedTenant({ search: 1 });
    await expectJson(await api.post("/search", { query: "dock" }), 200);
    await expectProblem(await api.post("/search", { query: "dock" }), 429, "rate-limited");
    await expectJson(await api.get("/videos"), 200);
    await expectJson(await api.post("/profiles", profile("p")), 201);
  });

  it("counts an invalid request and an idempotent replay like any other", async () => {
    const { api } = await limitedTenant({ writes: 3 });
    await expectProblem(await api.post("/profiles", { name: "" }), 400, "invalid-request");
    const body = profile("once");
    const headers = { "Idempotency-Key": "k-1" };
    await expectJson(await api.post("/profiles", body, headers), 201);
    const replay = await api.post("/profiles", body, headers);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.headers.get("ratelimit")).toMatch(/^"writes";r=0;t=\d+$/);
    await expectProblem(await api.post("/profiles", body, headers), 429, "rate-limited");
  });

  it("lets requests through again once the window has passed", async () => {
    const { api } = await limitedTenant({ reads: 2 });
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    await expectJson(await api.get("/videos"), 200);
    await expectJson(await api.get("/videos"), 200);
    vi.setSystemTime(start + 30_000);
    const refused = await api.get("/videos");
    await expectProblem(refused, 429, "rate-limited");
    expect(refused.headers.get("retry-after")).toBe("30");
    // The workerd clock does not move between these awaits, so the window ends exactly here.
    vi.setSystemTime(start + 60_000);
    const again = await api.get("/videos");
    await expectJson(again, 200);
    expect(again.headers.get("ratelimit")).toBe('"reads";r=1;t=60');
  });

  it("applies an operator's change to the next request", async () => {
    const { api, workspaceId } = await limitedTenant({ uploads: 1 });
    const session = { filename: "a.mp4", file_size: 1024 };
    await expectJson(await api.post("/videos", session), 201);
    await expectProblem(await api.post("/videos", session), 429, "rate-limited");
    await expectJson(
      await admin("PATCH", `/workspaces/${workspaceId}`, { rate_limits: { uploads: null } }),
      200,
    );
    const opened = await api.post("/videos", session);
    await expectJson(opened, 201);
    // Back to the default quota in the same window: one request counted before, this one now.
    expect(opened.headers.get("ratelimit")).toMatch(/^"uploads";r=1198;t=\d+$/);
  });
});
