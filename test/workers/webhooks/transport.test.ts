import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchTransport, TransportError } from "../../../src/services/webhooks/transport";

const request = {
  url: "https://hooks.example.com/in",
  headers: { a: "b" },
  body: "{}",
  signal: new AbortController().signal,
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the production webhook transport", () => {
  it("POSTs without following redirects, with the lane's signal, and reports status and Retry-After", async () => {
    const spy = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValue(new Response("moved", { status: 302, headers: { "retry-after": "7" } }));
    expect(await fetchTransport(request)).toMatchObject({ status: 302, retryAfter: "7" });
    const [url, init] = spy.mock.calls[0] ?? [];
    expect(url).toBe(request.url);
    expect(init).toMatchObject({
      method: "POST",
      body: "{}",
      headers: { a: "b" },
      redirect: "manual",
    });
    expect(init?.signal).toBe(request.signal);
  });

  it("reads an endless answer only to a small limit", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(endless, { status: 200 }));
    const answer = await fetchTransport(request);
    expect(answer).toMatchObject({ status: 200, retryAfter: null });
    await answer.drained;
    expect(pulled).toBeLessThan(10);
  });

  it("answers at the status; a body that never ends is given up within a second", async () => {
    const stuck = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(stuck, { status: 202 }));
    const answer = await fetchTransport(request);
    expect(answer).toMatchObject({ status: 202, retryAfter: null });
    const started = Date.now();
    await answer.drained;
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("classifies timeouts and network failures", async () => {
    const timeout = new DOMException("timed out", "TimeoutError");
    vi.spyOn(globalThis, "fetch").mockRejectedValueOnce(timeout);
    await expect(fetchTransport(request)).rejects.toEqual(new TransportError("timeout"));
    vi.spyOn(globalThis, "fetch").mockRejectedValueOnce(new TypeError("Invalid URL string."));
    const error = await fetchTransport(request).catch((e: unknown) => e);
    expect(error).toEqual(new TransportError("network"));
    expect(error).toMatchObject({ errorClass: "network", connectionLost: false });
  });

  it("tells a connection lost before any answer from other network failures", async () => {
    // workerd's own error for a refused, reset or closed connection (measured locally).
    const lost = Object.assign(new Error("Network connection lost."), { retryable: true });
    vi.spyOn(globalThis, "fetch").mockRejectedValueOnce(lost);
    const error = await fetchTransport(request).catch((e: unknown) => e);
    expect(error).toMatchObject({ errorClass: "network", connectionLost: true });
  });
});
