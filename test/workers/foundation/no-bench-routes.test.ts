import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../../src/index";

/** Whatever a deployment's variables say, the production Worker has no bench routes. */
const benchEnv = { ...env, BENCH_ROUTES: "1" };

async function send(path: string, method: string, body?: string): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request<unknown, IncomingRequestCfProperties>(
    `https://api.example.com${path}`,
    {
      method,
      ...(body === undefined ? {} : { body, headers: { "content-type": "application/json" } }),
    },
  );
  const res = await worker.fetch(request, benchEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("the production Worker", () => {
  it.each([
    ["GET", "/__bench/videos?workspace_id=ws_x&limit=25"],
    ["POST", "/__bench/seed-videos?workspace_id=ws_x&count=5"],
    ["POST", "/__bench/multipart?key=videos/any/source"],
    ["PUT", "/__bench/multipart/part?key=k&upload_id=u&part_number=1"],
    ["POST", "/__bench/probe?key=videos/any/source"],
    ["POST", "/__bench/index-transcript?workspace_id=ws_x"],
    ["POST", "/__bench/seed-segments?workspace_id=ws_x"],
    ["GET", "/__bench/index-stats?workspace_id=ws_x"],
    ["GET", "/__bench/unlimited/api/v1alpha1/videos"],
  ])("answers %s %s with the ordinary 404, even with BENCH_ROUTES=1", async (method, path) => {
    const res = await send(path, method, method === "GET" ? undefined : "{}");
    const text = await res.text();
    expect(res.status, text).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(JSON.parse(text)).toMatchObject({ code: "resource-not-found" });
  });

  it("writes nothing when a bench route is requested", async () => {
    await send("/__bench/seed-videos?workspace_id=ws_bench&count=5", "POST", "{}");
    const row = await env.DB.prepare("SELECT count(*) AS n FROM videos WHERE workspace_id = ?")
      .bind("ws_bench")
      .first<{ n: number }>();
    expect(row?.n).toBe(0);
  });
});
