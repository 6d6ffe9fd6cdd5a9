import { describe, expect, it } from "vitest";
import { VasClient, VasError } from "../src/index.js";

function answering(status: number, body: string, type = "application/problem+json") {
  const seen: Request[] = [];
  const client = new VasClient({
    baseUrl: "http://vas.test/",
    apiKey: "vas_secret",
    fetch: async (request) => {
      seen.push(request);
      return new Response(body, { status, headers: { "content-type": type } });
    },
  });
  return { client, seen };
}

describe("VasError", () => {
  it("carries the problem document of a 400 with the fields it names", async () => {
    const problem = {
      type: "/problems/invalid-request",
      title: "The request is invalid",
      status: 400,
      detail: "limit must be between 1 and 100.",
      code: "invalid-request",
      errors: [{ path: "limit", message: "must be between 1 and 100" }],
    };
    const { client, seen } = answering(400, JSON.stringify(problem));
    const failure = await client.listVideos({ limit: 500 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(VasError);
    expect(failure).toMatchObject({ kind: "http", status: 400, code: "invalid-request" });
    expect((failure as VasError).fields).toEqual(["limit"]);
    expect((failure as VasError).problem).toEqual(problem);
    expect((failure as VasError).message).toBe("limit must be between 1 and 100.");
    expect(seen[0]?.url).toBe("http://vas.test/api/v1alpha1/videos?limit=500");
    expect(seen[0]?.headers.get("authorization")).toBe("Bearer vas_secret");
  });

  it("makes a problem of an answer without one (a proxy's HTML 502)", async () => {
    const { client } = answering(502, "<html>Bad gateway</html>", "text/html");
    const failure = await client.getVideo("vid_1").catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: "http", status: 502, code: "internal-error" });
  });

  it("reports a refused connection as kind network", async () => {
    const client = new VasClient({
      baseUrl: "http://vas.test",
      apiKey: "vas_secret",
      fetch: async () => {
        throw new TypeError("fetch failed");
      },
    });
    const failure = await client.getRun("run_1").catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: "network", code: "network-error" });
    expect((failure as VasError).cause).toBeInstanceOf(TypeError);
  });

  it("sends a POST lost with its connection again under the same Idempotency-Key", async () => {
    const keys: (string | null)[] = [];
    const client = new VasClient({
      baseUrl: "http://vas.test",
      apiKey: "vas_secret",
      fetch: async (request) => {
        keys.push(request.headers.get("idempotency-key"));
        expect(await request.json()).toEqual({ query: "dock" });
        if (keys.length === 1) throw new TypeError("other side closed");
        return Response.json({ data: [], has_more: false, next_cursor: null });
      },
    });
    await expect(client.search({ query: "dock" })).resolves.toMatchObject({ data: [] });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});
