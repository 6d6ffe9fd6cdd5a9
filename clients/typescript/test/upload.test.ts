import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VasClient, VasError } from "../src/index.js";
import type { UploadProgress } from "../src/upload.js";
import { API_BASE, FakeService } from "./fake-service.js";

const instantClock = { now: () => 0, sleep: async () => {} };

function setup(directMax?: number, chunk?: number) {
  const service = new FakeService(directMax, chunk);
  const client = new VasClient({ baseUrl: API_BASE, apiKey: "vas_test", fetch: service.fetch });
  return { service, client };
}

function bytes(size: number, seed = 7): Uint8Array<ArrayBuffer> {
  return Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);
}

describe("uploadFile", () => {
  it("sends a small file in one PUT and completes it", async () => {
    const { service, client } = setup();
    const file = bytes(900);
    const video = await client.uploadFile(new Blob([file]), { filename: "a.mp4" });
    expect(video.status).toBe("queued");
    expect(service.puts).toEqual([`${video.id}#1`]);
    expect(service.assembled(video.id)).toEqual(file);
    expect(service.uploads.get(video.id)?.state).toBe("completed");
  });

  it("sends a large file as parts, records each ETag, and reports progress to the total", async () => {
    const { service, client } = setup();
    const file = bytes(2500);
    const seen: UploadProgress[] = [];
    const video = await client.uploadFile(new File([file], "big.mp4"), {
      concurrency: 3,
      onProgress: (p) => seen.push(p),
    });
    expect(service.assembled(video.id)).toEqual(file);
    expect([...(service.uploads.get(video.id)?.parts.keys() ?? [])].sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(service.uploads.get(video.id)?.parts.get(3)).toBe(`"etag-${video.id}#3"`);
    expect(seen.map((p) => p.loaded)).toEqual([...seen.map((p) => p.loaded)].sort((a, b) => a - b));
    expect(seen.at(-1)).toEqual({ videoId: video.id, loaded: 2500, total: 2500 });
  });

  it("retries a part after a dropped connection and a 503, then succeeds", async () => {
    const { service, client } = setup();
    service.storageFault = (key, attempt) => {
      if (key.endsWith("#2") && attempt === 1) throw new TypeError("fetch failed");
      if (key.endsWith("#4") && attempt <= 2) return new Response("busy", { status: 503 });
      return undefined;
    };
    const file = bytes(1500);
    const video = await client.uploadFile(new Blob([file]), {
      filename: "a.mp4",
      clock: instantClock,
    });
    expect(service.assembled(video.id)).toEqual(file);
    expect(service.puts.filter((k) => k.endsWith("#2"))).toHaveLength(2);
    expect(service.puts.filter((k) => k.endsWith("#4"))).toHaveLength(3);
  });

  it("gives up after the retries with a storage VasError carrying the status", async () => {
    const { service, client } = setup();
    service.storageFault = () =>
      new Response("<Error><Code>SlowDown</Code></Error>", { status: 503 });
    const failure = await client
      .uploadFile(new Blob([bytes(100)]), { filename: "a.mp4", retries: 2, clock: instantClock })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(VasError);
    expect(failure).toMatchObject({ kind: "storage", status: 503, code: "storage-error" });
    expect(service.puts).toHaveLength(3);
  });

  it("resumes an aborted upload sending only the parts storage does not hold", async () => {
    const { service, client } = setup();
    const file = bytes(2600);
    const controller = new AbortController();
    let videoId = "";
    service.storageFault = (key) => {
      if (key.endsWith("#5")) controller.abort(new Error("Ctrl-C"));
      return undefined;
    };
    const aborted = await client
      .uploadFile(new Blob([file]), {
        filename: "a.mp4",
        concurrency: 1,
        signal: controller.signal,
        onSession: (s) => {
          videoId = s.video_id;
        },
      })
      .catch((error: unknown) => error);
    expect(aborted).toEqual(new Error("Ctrl-C"));
    const recorded = [...(service.uploads.get(videoId)?.parts.keys() ?? [])];
    expect(recorded).toEqual([1, 2, 3, 4]);
    service.storageFault = () => undefined;
    service.puts.length = 0;
    const progress: number[] = [];
    const video = await client.uploadFile(new Blob([file]), {
      videoId,
      onProgress: (p) => progress.push(p.loaded),
    });
    expect(video.id).toBe(videoId);
    expect(service.puts.sort()).toEqual(
      [5, 6, 7, 8, 9, 10, 11].map((n) => `${videoId}#${n}`).sort(),
    );
    expect(service.assembled(videoId)).toEqual(file);
    expect(progress[0]).toBeGreaterThan(4 * 256);
  });

  it.each([
    // Receipts and the completion are read as JSON; storage's refusal for its error code.
    ["a part's receipt", (url: string) => new URL(url).pathname.endsWith("/parts"), 200],
    ["storage's refusal", (url: string) => url.startsWith("http://storage.test"), 400],
    ["the completion's answer", (url: string) => new URL(url).pathname.endsWith("/complete"), 200],
  ])(
    "ends an upload aborted while %s is still arriving, with the abort's reason",
    async (_, slow, status) => {
      // A body whose bytes never come and whose cancel never settles: what Node's fetch can leave
      // behind when the signal aborts mid-read. The upload must still settle.
      const { service } = setup();
      const controller = new AbortController();
      const fetch = async (request: Request) => {
        const answer = await service.fetch(request);
        if (!slow(request.url) || controller.signal.aborted) return answer;
        setTimeout(() => controller.abort(new Error("Ctrl-C")), 5);
        const never = new ReadableStream<Uint8Array>({
          pull: () => new Promise(() => {}),
          cancel: () => new Promise(() => {}),
        });
        return new Response(never, { status, headers: answer.headers });
      };
      const client = new VasClient({ baseUrl: API_BASE, apiKey: "vas_test", fetch });
      const aborted = await client
        .uploadFile(new Blob([bytes(2600)]), {
          filename: "a.mp4",
          concurrency: 2,
          signal: controller.signal,
        })
        .catch((error: unknown) => error);
      expect(aborted).toEqual(new Error("Ctrl-C"));
    },
  );

  it("refuses to resume with a file of another size", async () => {
    const { client } = setup();
    let videoId = "";
    const stopped = await client
      .uploadFile(new Blob([bytes(2000)]), {
        filename: "a.mp4",
        onSession: (session) => {
          videoId = session.video_id;
          throw new Error("stop before any byte");
        },
      })
      .catch((error: Error) => error.message);
    expect(stopped).toBe("stop before any byte");
    const failure = await client
      .uploadFile(new Blob([bytes(1300)]), { videoId })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: "http", code: "upload-size-mismatch" });
  });

  it.each([
    ["aborted", 409, "conflict"],
    ["expired", 410, "upload-expired"],
  ] as const)("refuses to resume an %s session", async (state, status, code) => {
    const { service, client } = setup();
    const file = new Blob([bytes(2000)]);
    let videoId = "";
    await client
      .uploadFile(file, {
        filename: "a.mp4",
        onSession: (session) => {
          videoId = session.video_id;
          throw new Error("stop");
        },
      })
      .catch(() => undefined);
    const upload = service.uploads.get(videoId);
    if (upload) upload.state = state;
    service.puts.length = 0;
    await expect(client.uploadFile(file, { videoId })).rejects.toMatchObject({ status, code });
    expect(service.puts).toEqual([]);
  });

  it("property: whatever the size, chunk and concurrency, storage ends with the file", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 64, max: 700 }),
        fc.integer({ min: 1, max: 6 }),
        async (size, chunk, concurrency) => {
          const { service, client } = setup(1000, chunk);
          const file = bytes(size, size);
          const video = await client.uploadFile(new Blob([file]), {
            filename: "a.mp4",
            concurrency,
          });
          expect(service.assembled(video.id)).toEqual(file);
          expect(service.puts).toHaveLength(size <= 1000 ? 1 : Math.ceil(size / chunk));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("property: an upload aborted at any moment settles, even when bodies stop arriving on abort", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 3 }),
        async (delays, abortAtCall, abortDelay) => {
          const service = new FakeService();
          const controller = new AbortController();
          const reason = new Error("Ctrl-C");
          let calls = 0;
          // Each answer's body comes `delay` ms after it is asked for, and never once the
          // request's signal has aborted: what Node's fetch can do to a body read mid-abort.
          const fetch = async (request: Request) => {
            const answer = await service.fetch(request);
            calls += 1;
            if (calls === abortAtCall) setTimeout(() => controller.abort(reason), abortDelay);
            if (answer.body === null) return answer;
            const bytes = new Uint8Array(await answer.arrayBuffer());
            const delay = delays[calls % delays.length] ?? 0;
            const late = new ReadableStream<Uint8Array>({
              pull: async (stream) => {
                await new Promise((resolve) => setTimeout(resolve, delay));
                if (request.signal.aborted) return new Promise<void>(() => {});
                stream.enqueue(bytes);
                stream.close();
              },
              cancel: () => new Promise<void>(() => {}),
            });
            return new Response(late, { status: answer.status, headers: answer.headers });
          };
          const client = new VasClient({ baseUrl: API_BASE, apiKey: "vas_test", fetch });
          let videoId = "";
          const outcome = await client
            .uploadFile(new Blob([bytes(2600)]), {
              filename: "a.mp4",
              concurrency: 3,
              signal: controller.signal,
              onSession: (session) => {
                videoId = session.video_id;
              },
            })
            .then(
              (video) => ({ video }),
              (error: unknown) => ({ error }),
            );
          // Aborted with the signal's reason, or finished before the abort and complete.
          if ("error" in outcome) expect(outcome.error).toBe(reason);
          else expect(service.uploads.get(videoId)?.state).toBe("completed");
        },
      ),
      { numRuns: 40 },
    );
  });
});
