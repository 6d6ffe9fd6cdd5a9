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
    expect(await fetchTransport(request)).toEqual({ status: 302, retryAfter: "7" });
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
    expect(await fetchTransport(request)).toEqual({ status: 200, retryAfter: null });
    expect(pulled).toBeLessThan(10);
  });

  it("classifies timeouts and network failures", async () => {
    const timeout = new DOMException("timed out", "TimeoutError");
    vi.spyOn(globalThis, "fetch").mockRejectedValueOnce(timeout);
    await expect(fetchTransport(request)).rejects.toEqual(new TransportError("timeout"));
    vi.spyOn(globalThis, "fetch").mockRejectedValueOnce(new TypeError("connection refused"));
    const error = await fetchTransport(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).errorClass).toBe("network");
  });
});
