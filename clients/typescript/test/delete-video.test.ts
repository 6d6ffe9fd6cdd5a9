import { describe, expect, it } from "vitest";
import { VasClient, VasError } from "../src/index.js";

describe("deleteVideo", () => {
  it("sends DELETE once more under the same Idempotency-Key when the connection drops", async () => {
    const seen: { method: string; url: string; key: string | null }[] = [];
    const client = new VasClient({
      baseUrl: "http://vas.test",
      apiKey: "vas_secret",
      fetch: async (request) => {
        seen.push({
          method: request.method,
          url: request.url,
          key: request.headers.get("idempotency-key"),
        });
        if (seen.length === 1) throw new TypeError("other side closed");
        return new Response(null, { status: 204 });
      },
    });
    await expect(client.deleteVideo("vid_1")).resolves.toBeUndefined();
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ["DELETE", "http://vas.test/api/v1alpha1/videos/vid_1"],
      ["DELETE", "http://vas.test/api/v1alpha1/videos/vid_1"],
    ]);
    expect(seen[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]?.key).toBe(seen[0]?.key);
  });

  it("rejects with the problem of a refusal", async () => {
    const client = new VasClient({
      baseUrl: "http://vas.test",
      apiKey: "vas_secret",
      fetch: async () =>
        Response.json(
          {
            type: "/problems/forbidden",
            title: "No",
            status: 403,
            detail: "needs DELETE_VIDEOS",
            code: "forbidden",
          },
          { status: 403, headers: { "content-type": "application/problem+json" } },
        ),
    });
    const error = await client.deleteVideo("vid_1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VasError);
    expect(error).toMatchObject({ kind: "http", problem: { code: "forbidden", status: 403 } });
  });
});
