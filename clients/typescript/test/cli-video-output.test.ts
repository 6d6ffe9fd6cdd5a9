import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as commands from "../src/cli/commands.js";
import { uploadCommand } from "../src/cli/upload-command.js";
import { VasClient } from "../src/index.js";
import { API_BASE, FakeService } from "./fake-service.js";

const SUMMARY =
  "Heard nothing: the file has no caption or subtitle track, and this service's media engine does not recognise speech. Saw nothing: this service's media engine does not look at pictures.";
const WARNING =
  "Nothing in this video was heard or seen, so search finds it only by its filename, title and tags, and every rule or answer about it is not checked.";

/** A completed video as GET /videos/{id} answers it, nothing heard or seen of it. */
function silentVideo(id: string) {
  return {
    id,
    filename: "phone-clip.mov",
    status: "completed",
    progress: 100,
    source: "upload",
    duration: 6,
    media: {
      coverage: { transcript: [], scene: { seconds: 0, share: 0 }, ocr: { seconds: 0, share: 0 } },
      understood: {
        heard_seconds: 0,
        seen_seconds: 0,
        heard_from: [],
        summary: SUMMARY,
        warning: WARNING,
      },
    },
    created_at: "2026-11-23T00:00:00.000Z",
    updated_at: "2026-11-23T00:00:00.000Z",
  };
}

let dir: string;
let stdout: string;
let stderr: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "vas-cli-"));
  vi.stubEnv("VAS_STATE_FILE", path.join(dir, "uploads.json"));
  stdout = "";
  stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const service = new FakeService();
  const client = new VasClient({ baseUrl: API_BASE, apiKey: "vas_test", fetch: service.fetch });
  const settings = (json: boolean) => ({ baseUrl: API_BASE, apiKey: "vas_test", json });
  return { service, client, settings };
}

describe("vas shows what was understood of a video", () => {
  it("upload --wait prints under the video's row its summary and its warning", async () => {
    const { service, client, settings } = setup();
    const file = path.join(dir, "phone-clip.mov");
    writeFileSync(file, new Uint8Array(300));
    // The service has processed the video by the first time it is asked.
    service.processed.set("vid_1", silentVideo("vid_1"));
    const code = await uploadCommand(client, settings(false), [file], {
      wait: true,
      concurrency: 1,
      timeout: 5,
    });
    expect(code).toBe(0);
    expect(stdout.split("\n")).toEqual([
      `${file}  vid_1  completed`,
      `  Understood: ${SUMMARY}`,
      `  Warning: ${WARNING}`,
      "",
    ]);
    expect(stderr).toBe("");
  });

  it("upload --wait --json keeps stdout the bare JSON and puts the warning on stderr", async () => {
    const { service, client, settings } = setup();
    const file = path.join(dir, "phone-clip.mov");
    writeFileSync(file, new Uint8Array(300));
    service.processed.set("vid_1", silentVideo("vid_1"));
    await uploadCommand(client, settings(true), [file], { wait: true, concurrency: 1, timeout: 5 });
    expect(JSON.parse(stdout)).toEqual([silentVideo("vid_1")]);
    expect(stderr).toBe(`vas: ${file}: ${WARNING}\n`);
  });

  it("videos get prints the summary alone when something was understood", async () => {
    const { service, client, settings } = setup();
    await client.uploadFile(new Blob([new Uint8Array(10)]), { filename: "talk.mp4" });
    const heard = silentVideo("vid_1");
    heard.media.understood = {
      heard_seconds: 24,
      seen_seconds: 0,
      heard_from: ["text-track:0:eng"],
      summary: "Heard 24 s of 24 s from text track 0 (eng). Saw nothing.",
    } as typeof heard.media.understood;
    service.processed.set("vid_1", heard);
    await commands.getVideo(client, settings(false), "vid_1");
    expect(stdout.split("\n")).toEqual([
      "vid_1  completed  6.0  phone-clip.mov",
      "  Understood: Heard 24 s of 24 s from text track 0 (eng). Saw nothing.",
      "",
    ]);
  });

  it("videos get --json puts the warning on stderr", async () => {
    const { service, client, settings } = setup();
    await client.uploadFile(new Blob([new Uint8Array(10)]), { filename: "clip.mov" });
    service.processed.set("vid_1", silentVideo("vid_1"));
    await commands.getVideo(client, settings(true), "vid_1");
    expect(JSON.parse(stdout)).toMatchObject({ id: "vid_1" });
    expect(stderr).toBe(`vas: vid_1: ${WARNING}\n`);
  });
});
