import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { MAX_JSON_BODY_BYTES } from "../../../src/app";
import { API, expectProblem, newTenant, workerFetch } from "../../helpers/harness";
import { testApp } from "../../helpers/test-app";

// Every request body is read whole before any route sees it: one that is cut off answers a 400
// problem, one over the limit a 413, whatever the method and however it is framed, and
// neither is logged as an internal error.

const encoder = new TextEncoder();

/** A body stream that sends `sent` and then fails, as a client that hangs up mid-body does. */
function hangingUp(sent: string): ReadableStream<Uint8Array> {
  let step = 0;
  return new ReadableStream({
    pull(controller) {
      if (step++ === 0) controller.enqueue(encoder.encode(sent));
      else controller.error(new Error("Network connection lost."));
    },
  });
}

/** A body stream of `size` bytes in 64 KiB chunks, framed without a length (chunked). */
function streamOf(size: number): ReadableStream<Uint8Array> {
  let left = size;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const chunk = new Uint8Array(Math.min(64 * 1024, left)).fill(0x78);
      left -= chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

/**
 * A request as the runtime hands an incoming GET or HEAD with a body to the Worker (workerd
 * gives one a body when it has Content-Length or Transfer-Encoding): the fetch API refuses to
 * build such a request, so a POST stands in, saying it is `method`.
 */
class IncomingWithBody extends Request {
  constructor(
    url: string,
    private readonly claimed: string,
    init: RequestInit,
  ) {
    super(url, { ...init, method: "POST" });
  }
  override get method(): string {
    return this.claimed;
  }
}

async function throughApp(request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await testApp.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("request bodies, read whole before any route", () => {
  it("answers a body whose client hangs up mid-way with a 400 problem, logging no internal error", async () => {
    const { api } = await newTenant();
    const logged = vi.spyOn(console, "error");
    for (const method of ["POST", "PATCH", "DELETE"]) {
      const res = await throughApp(
        new Request(`${API}/profiles`, {
          method,
          headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
          body: hangingUp('{"name":"cut off'),
        }),
      );
      const problem = await expectProblem(res, 400, "invalid-request");
      expect(problem.errors, JSON.stringify(problem)).toEqual([
        { path: "body", message: "ended before all of it arrived" },
      ]);
    }
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it("answers a body shorter than its Content-Length with a 400 problem, never a 500", async () => {
    const { api } = await newTenant();
    const logged = vi.spyOn(console, "error");
    const sent = '{"name":"seventee';
    const res = await workerFetch(`${API}/profiles`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${api.key}`,
        "content-type": "application/json",
        "content-length": "100",
      },
      body: new Blob([sent]).stream(),
    });
    const problem = await expectProblem(res, 400, "invalid-request");
    expect(problem.errors?.[0]?.path, JSON.stringify(problem)).toBe("body");
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it("refuses a chunked body over the limit with 413 on every method that carries one", async () => {
    const { api } = await newTenant();
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = await workerFetch(`${API}/profiles`, {
        method,
        headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
        body: streamOf(MAX_JSON_BODY_BYTES + 1),
      });
      await expectProblem(res, 413, "payload-too-large");
    }
  });

  it("refuses a GET or HEAD body over the limit with 413, and answers a small one as if bodiless", async () => {
    const { api } = await newTenant();
    const headers = { authorization: `Bearer ${api.key}`, "content-type": "application/json" };
    for (const method of ["GET", "HEAD"]) {
      const over = new IncomingWithBody(`${API}/videos`, method, {
        headers,
        body: streamOf(MAX_JSON_BODY_BYTES + 1),
      });
      expect((await throughApp(over)).status, method).toBe(413);
      const declared = new IncomingWithBody(`${API}/videos`, method, {
        headers: { ...headers, "content-length": String(2 * MAX_JSON_BODY_BYTES) },
        body: streamOf(2 * MAX_JSON_BODY_BYTES),
      });
      expect((await throughApp(declared)).status, method).toBe(413);
      const small = new IncomingWithBody(`${API}/videos`, method, { headers, body: "{}" });
      const res = await throughApp(small);
      expect(res.status, await res.clone().text()).toBe(200);
    }
    const cut = new IncomingWithBody(`${API}/videos`, "GET", { headers, body: hangingUp("{") });
    await expectProblem(await throughApp(cut), 400, "invalid-request");
  });

  it("still hands a body within the limit to its route whole", async () => {
    const { api } = await newTenant();
    const res = await workerFetch(`${API}/profiles`, {
      method: "POST",
      headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "Whole",
        instructions: "Read it.",
        answer_specs: [
          { answer_key: "k", answer_type: "verdict", description: "a rule is stated" },
        ],
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
  });
});
