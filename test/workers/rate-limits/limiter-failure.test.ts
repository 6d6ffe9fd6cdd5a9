import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../../../src/app";
import type { WorkspaceLimiter } from "../../../src/middleware/rate-limit";
import { createPorts } from "../../../src/ports";
import { API, expectJson, expectProblem, newTenant } from "../../helpers/harness";

/** GET /videos through an app whose limiter always throws `error`. */
async function listWithFailingLimiter(error: unknown): Promise<Response> {
  const { api } = await newTenant();
  const failing: WorkspaceLimiter = { take: () => Promise.reject(error) };
  const app = createApp({ ports: createPorts(env), rateLimiter: failing });
  return app.fetch(
    new Request(`${API}/videos`, { headers: { authorization: `Bearer ${api.key}` } }),
    env,
    createExecutionContext(),
  );
}

describe("a limiter that cannot answer", () => {
  it("lets the request through without RateLimit fields, and says so in the log", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await listWithFailingLimiter(new Error("object unreachable"));
    await expectJson(res, 200);
    expect(res.headers.get("ratelimit")).toBeNull();
    expect(res.headers.get("ratelimit-policy")).toBeNull();
    expect(String(logged.mock.calls[0]?.[0])).toContain("rate limiter: Error: object unreachable");
  });

  it("answers 429 when the workspace's object is overloaded: the workspace is flooding it", async () => {
    const overloaded = Object.assign(new Error("Durable Object is overloaded"), {
      overloaded: true,
    });
    const res = await listWithFailingLimiter(overloaded);
    expect(res.headers.get("retry-after")).toBe("1");
    await expectProblem(res, 429, "rate-limited");
  });
});
