import { afterEach, describe, expect, it, vi } from "vitest";
import { reportFailure } from "../src/cli/output.js";
import { VasClient, VasError } from "../src/index.js";

function answering(
  status: number,
  body: string,
  type = "application/problem+json",
  headers: Record<string, string> = {},
) {
  const seen: Request[] = [];
  const client = new VasClient({
    baseUrl: "http://vas.test/",
    apiKey: "vas_secret",
    fetch: async (request) => {
      seen.push(request);
      return new Response(body, { status, headers: { "content-type": type, ...headers } });
    },
  });
  return { client, seen };
}

afterEach(() => {
  vi.restoreAllMocks();
});

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

  it("names the request the service answered, from the problem or else the header", async () => {
    const problem = {
      type: "/problems/resource-not-found",
      title: "Not found",
      status: 404,
      detail: "Video vid_1 was not found.",
      code: "resource-not-found",
      request_id: "req_from_body",
    };
    const header = { "x-request-id": "req_from_body" };
    const found = answering(404, JSON.stringify(problem), undefined, header).client;
    const failure = await found.getVideo("vid_1").catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: "http", status: 404, requestId: "req_from_body" });

    const headerOnly = { "x-request-id": "req_from_header" };
    const bare = answering(502, "<html>Bad gateway</html>", "text/html", headerOnly).client;
    const gateway = await bare.getVideo("vid_1").catch((error: unknown) => error);
    expect(gateway).toMatchObject({ status: 502, requestId: "req_from_header" });

    const proxy = answering(502, "<html>Bad gateway</html>", "text/html").client;
    expect(await proxy.getVideo("vid_1").catch((error: unknown) => error)).toMatchObject({
      requestId: null,
    });
  });

  it("prints the request id on the CLI's error line", async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const problem = {
      type: "/problems/invalid-request",
      title: "The request is invalid",
      status: 400,
      detail: "limit must be between 1 and 100.",
      code: "invalid-request",
      errors: [{ path: "limit", message: "must be between 1 and 100" }],
      request_id: "4bf92f35-77b3-4da6-a3ce-929d0e0e4736",
    };
    const { client } = answering(400, JSON.stringify(problem));
    const failure = await client.listVideos({ limit: 500 }).catch((error: unknown) => error);
    expect(reportFailure(failure)).toBe(1);
    expect(written).toEqual([
      "vas: invalid-request: limit must be between 1 and 100. (limit) [request 4bf92f35-77b3-4da6-a3ce-929d0e0e4736]\n",
    ]);
  });
});
