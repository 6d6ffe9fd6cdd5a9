// An in-memory stand-in for the upload operations and presigned storage, answering Requests
// the way the service documents them, so unit tests see what a user's fetch would.
import type { UploadSession } from "../src/types.js";

const API = "http://vas.test/api/v1alpha1";
const STORAGE = "http://storage.test";

interface Upload {
  id: string;
  filename: string;
  size: number;
  state: UploadSession["state"];
  parts: Map<number, string>;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": status < 300 ? "application/json" : "application/problem+json",
    },
  });
}

function problem(status: number, code: string, detail: string) {
  return json(status, { type: `/problems/${code}`, title: code, status, detail, code });
}

export class FakeService {
  readonly uploads = new Map<string, Upload>();
  /** Bytes storage holds, per video and part number. */
  readonly stored = new Map<string, Map<number, Uint8Array>>();
  /** Every storage PUT tried, as `videoId#part`. */
  readonly puts: string[] = [];
  /** What GET /videos/{id} answers once processing has ended, by video id (else `queued`). */
  readonly processed = new Map<string, Record<string, unknown>>();
  /** Called before a storage PUT answers: return a Response (or throw) to fail it. */
  storageFault: (key: string, attempt: number) => Response | undefined = () => undefined;
  private attempts = new Map<string, number>();
  private next = 1;

  /**
   * The client follows the session's strategy and chunk size, so small limits exercise the
   * same code as the service's 200 MiB and 10 MiB without allocating them.
   */
  constructor(
    readonly directMax = 1000,
    readonly chunk = 256,
  ) {}

  readonly fetch = async (request: Request): Promise<Response> => {
    request.signal.throwIfAborted();
    const url = new URL(request.url);
    if (url.origin === STORAGE) return this.storage(request, url);
    if (request.headers.get("authorization") !== "Bearer vas_test")
      return problem(401, "unauthorized", "No key.");
    return this.api(request, url.pathname.replace("/api/v1alpha1", ""));
  };

  private plan(size: number) {
    return size <= this.directMax
      ? { strategy: "direct" as const, chunk: size, total: 1 }
      : { strategy: "multipart" as const, chunk: this.chunk, total: Math.ceil(size / this.chunk) };
  }

  session(upload: Upload, targets: number[]): UploadSession {
    const plan = this.plan(upload.size);
    const target = (n: number) => ({
      method: "put" as const,
      url: `${STORAGE}/${upload.id}/${n}`,
      headers: {},
      part_number: n,
      expires_at: "2030-01-01T00:00:00.000Z",
    });
    const received = [...upload.parts.keys()].sort((a, b) => a - b);
    return {
      video_id: upload.id,
      filename: upload.filename,
      content_type: "video/mp4",
      state: upload.state,
      strategy: plan.strategy,
      file_size: upload.size,
      chunk_size: plan.chunk,
      total_chunks: plan.total,
      completed_parts: received.length,
      received_parts: received,
      uploaded_bytes: 0,
      reported_bytes: 0,
      verified_bytes: 0,
      expires_at: "2030-01-01T00:00:00.000Z",
      targets: targets.map(target),
      ...(plan.strategy === "direct" && targets.length ? { target: target(1) } : {}),
    };
  }

  missing(upload: Upload): number[] {
    const { total, strategy } = this.plan(upload.size);
    if (strategy === "direct") return this.stored.get(upload.id)?.has(1) ? [] : [1];
    return Array.from({ length: total }, (_, i) => i + 1).filter((n) => !upload.parts.has(n));
  }

  private async api(request: Request, path: string): Promise<Response> {
    const match = path.match(/^\/videos\/([^/]+)(\/upload(?:\/(\w+))?)?$/);
    if (request.method === "POST" && path === "/videos") {
      const body = (await request.json()) as { filename: string; file_size: number };
      const id = `vid_${this.next++}`;
      const upload: Upload = {
        id,
        filename: body.filename,
        size: body.file_size,
        state: "open",
        parts: new Map(),
      };
      this.uploads.set(id, upload);
      const { total } = this.plan(body.file_size);
      return json(
        201,
        this.session(
          upload,
          Array.from({ length: total }, (_, i) => i + 1),
        ),
      );
    }
    const upload = match?.[1] ? this.uploads.get(match[1]) : undefined;
    if (!match || !upload) return problem(404, "resource-not-found", `No ${path}.`);
    const action = `${request.method} ${match[3] ?? (match[2] ? "upload" : "video")}`;
    switch (action) {
      case "GET upload":
        return json(200, this.session(upload, []));
      case "POST targets":
        return json(200, this.session(upload, this.missing(upload)));
      case "PUT parts": {
        const body = (await request.json()) as { parts: { part_number: number; etag: string }[] };
        for (const part of body.parts) upload.parts.set(part.part_number, part.etag);
        return json(200, this.session(upload, []));
      }
      case "POST complete": {
        const missing = this.missing(upload);
        if (missing.length) return problem(409, "upload-incomplete", `Missing ${missing}.`);
        upload.state = "completed";
        return json(200, this.video(upload.id, "queued"));
      }
      case "GET video":
        return json(200, this.processed.get(upload.id) ?? this.video(upload.id, "queued"));
    }
    return problem(405, "method-not-allowed", action);
  }

  video(id: string, status: "queued" | "processing" | "completed" | "failed") {
    const now = "2026-11-23T00:00:00.000Z";
    return {
      id,
      filename: "a.mp4",
      status,
      progress: 0,
      source: "upload",
      created_at: now,
      updated_at: now,
    };
  }

  private async storage(request: Request, url: URL): Promise<Response> {
    const [, id = "", n = "0"] = url.pathname.split("/");
    const key = `${id}#${n}`;
    this.puts.push(key);
    const attempt = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, attempt);
    const bytes = new Uint8Array(await request.arrayBuffer());
    const fault = this.storageFault(key, attempt);
    if (fault) return fault;
    const parts = this.stored.get(id) ?? new Map<number, Uint8Array>();
    parts.set(Number(n), bytes);
    this.stored.set(id, parts);
    return new Response(null, { status: 200, headers: { etag: `"etag-${key}"` } });
  }

  /** The bytes storage holds for a video, parts in order. */
  assembled(id: string): Uint8Array {
    const parts = [...(this.stored.get(id) ?? new Map()).entries()].sort(([a], [b]) => a - b);
    const out = new Uint8Array(parts.reduce((sum, [, p]) => sum + p.length, 0));
    let offset = 0;
    for (const [, part] of parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }
}

export const API_BASE = API;
