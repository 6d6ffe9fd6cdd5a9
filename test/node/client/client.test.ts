import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileBlob, type UploadSession, VasClient } from "../../../clients/typescript/src/node";
import type { LocalProcess } from "../local-process";
import { startService, writeBigMp4 } from "./service";

// The typed client against the real local process: a 201 MiB file goes up in 21 parts, is
// interrupted, resumed, completed and processed.
const SIZE = 201 * 1024 * 1024;
let service: LocalProcess;
let stateDir: string;
let client: VasClient;
let big: { file: string };

const PART = 10 * 1024 * 1024;

/** SHA-256 of every file under `dir` of a part's size (miniflare keeps each part as a file). */
function storedPartHashes(dir: string): Set<string> {
  const sizes = new Set([PART, SIZE % PART]);
  return new Set(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .filter((file) => sizes.has(statSync(file).size))
      .map((file) => createHash("sha256").update(readFileSync(file)).digest("hex")),
  );
}

beforeAll(async () => {
  big = writeBigMp4(SIZE);
  const started = await startService();
  service = started.service;
  stateDir = started.stateDir;
  client = new VasClient({ baseUrl: service.baseUrl, apiKey: started.apiKey });
});

afterAll(async () => {
  await service?.stop();
  rmSync(path.dirname(big.file), { recursive: true, force: true });
  rmSync(stateDir, { recursive: true, force: true });
});

describe("the typed client against the local process", () => {
  it("uploads a multipart file, is aborted halfway, resumes only the missing parts", async () => {
    const blob = await fileBlob(big.file);
    const controller = new AbortController();
    let session: UploadSession | undefined;
    const interrupted = await client
      .uploadFile(blob, {
        filename: "big.mp4",
        concurrency: 3,
        onSession: (s) => {
          session = s;
        },
        onProgress: (p) => {
          if (p.loaded >= SIZE / 2) controller.abort(new Error("interrupted"));
        },
        signal: controller.signal,
      })
      .catch((error: unknown) => error);
    expect(interrupted).toEqual(new Error("interrupted"));
    expect(session?.strategy).toBe("multipart");
    expect(session?.total_chunks).toBe(21);
    const videoId = session?.video_id ?? "";
    const halfway = await client.api.GET("/videos/{video_id}/upload", {
      params: { path: { video_id: videoId } },
    });
    const recorded = halfway.data?.received_parts ?? [];
    expect(halfway.data?.state).toBe("open");
    expect(recorded.length).toBeGreaterThanOrEqual(10);
    expect(recorded.length).toBeLessThan(21);

    const sent: number[] = [];
    const video = await client.uploadFile(blob, {
      videoId,
      onProgress: (p) => sent.push(p.loaded),
    });
    expect(video.id).toBe(videoId);
    // Only the missing parts went up again: one progress event per part.
    expect(sent).toHaveLength(21 - recorded.length);
    const done = await client.api.GET("/videos/{video_id}/upload", {
      params: { path: { video_id: videoId } },
    });
    expect(done.data).toMatchObject({ state: "completed", verified_bytes: SIZE });

    // Storage holds every part's bytes: read where miniflare keeps them, since no operation
    // serves an uploaded source back. The file's pattern makes every part distinct.
    const stored = storedPartHashes(stateDir);
    const file = readFileSync(big.file);
    for (let at = 0; at < SIZE; at += PART) {
      const hash = createHash("sha256")
        .update(file.subarray(at, at + PART))
        .digest("hex");
      expect(stored.has(hash), `part at ${at}`).toBe(true);
    }

    const processed = await client.waitForVideo(videoId, { timeoutMs: 90_000 });
    expect(processed.status).toBe("completed");
    expect(processed.duration).toBeGreaterThan(0);
  });
});
