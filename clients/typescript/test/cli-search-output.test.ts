import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as commands from "../src/cli/commands.js";
import { VasClient } from "../src/index.js";

const SCOPE_DETAIL =
  "2 videos searched. It searched caption and subtitle tracks, uploaded captions, container tags and filenames. 1 video was not searched: 1 is still being uploaded or processed.";

function scope(notSearched: number, withoutUnderstanding: number) {
  return {
    videos_searched: 2,
    videos_without_understanding: withoutUnderstanding,
    videos_not_searched: notSearched,
    videos_not_yet_indexed: notSearched,
    videos_failed: 0,
    kinds_searched: ["transcript", "metadata", "tags", "filename"],
    detail: SCOPE_DETAIL,
  };
}

const FILENAME_HIT = {
  id: "seg_1_00000",
  video_id: "vid_1",
  title: "COLD_STORAGE.mp4",
  score: 0.8245,
  scene_description: "",
  tags: [],
  time_position: 0,
  text: "COLD_STORAGE.mp4",
  matches: [{ kind: "filename", source: "filename", text: "COLD_STORAGE.mp4", start: 0, end: 0 }],
};

let stdout: string;
let stderr: string;

beforeEach(() => {
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

afterEach(() => vi.restoreAllMocks());

function answering(page: unknown) {
  return new VasClient({
    baseUrl: "http://vas.test",
    apiKey: "vas_test",
    fetch: async () => Response.json(page),
  });
}

const settings = (json: boolean) => ({ baseUrl: "http://vas.test", apiKey: "vas_test", json });

describe("vas search", () => {
  it("marks a result found by its filename, and notes the videos it left out", async () => {
    const page = { data: [FILENAME_HIT], has_more: false, next_cursor: null, scope: scope(1, 0) };
    await commands.search(answering(page), settings(false), "cold storage", { limit: 10 });
    expect(stdout.split("\n")).toEqual([
      "0.82  0.0s  vid_1  COLD_STORAGE.mp4  (filename) COLD_STORAGE.mp4",
      `Note: ${SCOPE_DETAIL}`,
      "",
    ]);
  });

  it("says nothing more when every video was searched and understood", async () => {
    const page = { data: [FILENAME_HIT], has_more: false, next_cursor: null, scope: scope(0, 0) };
    await commands.search(answering(page), settings(false), "cold storage", { limit: 10 });
    expect(stdout.split("\n")).toHaveLength(2);
  });

  it("keeps stdout the bare array under --json, the note on stderr", async () => {
    const page = { data: [FILENAME_HIT], has_more: false, next_cursor: null, scope: scope(0, 1) };
    await commands.search(answering(page), settings(true), "cold storage", { limit: 10 });
    expect(JSON.parse(stdout)).toEqual([FILENAME_HIT]);
    expect(stderr).toBe(`vas: note: ${SCOPE_DETAIL}\n`);
  });
});
