import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { keywordLevels } from "../../../src/lib/text/search-scoring";
import { createPorts } from "../../../src/ports";
import { createDeps } from "../../../src/services/deps";
import { indexVideo } from "../../../src/services/search/index-video";
import { insertVideos } from "../../helpers/factories";
import { type Client, expectJson, newTenant } from "../../helpers/harness";

interface Page {
  data: Array<{ id: string; score: number }>;
}

describe("keywordLevels", () => {
  it("asks for every content word first, then fewer, down to any one", () => {
    expect(keywordLevels("the forklift and the pallet")).toEqual([
      { expression: '("forklift" AND "pallet")', ranked: false },
      { expression: '"forklift" OR "pallet"', ranked: false },
    ]);
    expect(keywordLevels("forklift pallet ladder").map((level) => level.expression)).toEqual([
      '("forklift" AND "pallet" AND "ladder")',
      '("forklift" AND "pallet") OR ("forklift" AND "ladder") OR ("pallet" AND "ladder")',
      '"forklift" OR "pallet" OR "ladder"',
    ]);
  });

  it("treats a quoted phrase as one more part and escapes quotes", () => {
    expect(keywordLevels('"pallet jack" moved')).toEqual([
      { expression: '("pallet" AND "jack" AND "moved" AND "pallet jack")', ranked: false },
      {
        expression:
          '("pallet" AND "jack" AND "moved") OR ("pallet" AND "jack" AND "pallet jack") OR ("pallet" AND "moved" AND "pallet jack") OR ("jack" AND "moved" AND "pallet jack")',
        ranked: false,
      },
      expect.objectContaining({ ranked: false }),
      {
        expression: '"pallet" OR "jack" OR "moved" OR "pallet jack"',
        ranked: false,
      },
    ]);
  });

  it("keeps stopwords when the query has nothing else, and asks nothing of an empty query", () => {
    expect(keywordLevels("the")).toEqual([{ expression: '"the"', ranked: false }]);
    expect(keywordLevels("  ...  ")).toEqual([]);
  });

  it("asks at most five levels, D1's limit on a compound SELECT, the fifth ranked", () => {
    const levels = keywordLevels("loading dock closes six pm sharp");
    expect(levels.map((level) => level.ranked)).toEqual([false, false, false, false, true]);
    expect(levels[3]?.expression.split(") OR (")).toHaveLength(20);
    expect(levels[4]?.expression).toBe(
      '"loading" OR "dock" OR "closes" OR "six" OR "pm" OR "sharp"',
    );
  });

  it("ends a long query with one BM25-ranked OR instead of a level of too many groups", () => {
    const words = "forklift pallet ladder valve helmet crane trailer sensor battery freezer";
    const levels = keywordLevels(words);
    expect(levels.map((level) => level.ranked)).toEqual([false, false, true]);
    expect(levels[0]?.expression.split(" AND ")).toHaveLength(10);
    expect(levels[1]?.expression.split(") OR (")).toHaveLength(10);
    expect(levels[2]?.expression).toBe(
      words
        .split(" ")
        .map((word) => `"${word}"`)
        .join(" OR "),
    );
  });
});

describe("keyword retrieval among many matches", () => {
  let api: Client;
  const segmentIds: string[] = [];

  /** One processing video whose segments say `lines`, indexed as processing would. */
  async function indexedVideo(workspaceId: string, lines: string[]): Promise<void> {
    const [videoId = ""] = await insertVideos(workspaceId, 1, { status: "processing" });
    const now = new Date().toISOString();
    await env.DB.batch(
      lines.map((line, position) => {
        const id = `seg_${videoId.slice(4)}_${String(position).padStart(5, "0")}`;
        segmentIds.push(id);
        return env.DB.prepare(
          "INSERT INTO video_segments (id, video_id, workspace_id, position, start_time, end_time, scene_description, transcript, tags, evidence, created_at) VALUES (?, ?, ?, ?, ?, ?, 'x', ?, '[]', '[]', ?)",
        ).bind(id, videoId, workspaceId, position, position * 5, position * 5 + 5, line, now);
      }),
    );
    await indexVideo(createDeps(env, createPorts(env)), {
      type: "index-video",
      video_id: videoId,
      workspace_id: workspaceId,
    });
  }

  beforeAll(async () => {
    const tenant = await newTenant(["READ_VIDEOS", "SEARCH_CONTENT"]);
    api = tenant.api;
    // 180 segments hold one common word; the ones that hold every word come last.
    const common = Array.from({ length: 180 }, (_, i) => `forklift reverses slowly ${i}`);
    await indexedVideo(tenant.workspaceId, [
      ...common,
      "forklift lifts the pallet",
      "forklift pallet ladder valve helmet crane trailer sensor battery freezer",
    ]);
  }, 60_000);

  it("finds the segment holding every query word, not only the first of those holding one", async () => {
    const page = await expectJson<Page>(
      await api.post("/search", { query: "forklift pallet", threshold: 0, limit: 3 }),
      200,
    );
    expect(
      page.data
        .map((result) => result.id)
        .slice(0, 2)
        .sort(),
    ).toEqual(segmentIds.slice(-2).sort());
  });

  it("says where the time went in Server-Timing, every phase once", async () => {
    const res = await api.post("/search", { query: "forklift pallet", threshold: 0 });
    expect(res.status).toBe(200);
    const phases = (res.headers.get("server-timing") ?? "")
      .split(", ")
      .map((part) => part.match(/^(\w+);dur=\d+\.\d$/)?.[1]);
    expect([...phases].sort()).toEqual(["candidates", "check", "embed", "rank", "urls", "vector"]);
  });

  it("finds it for a long query too, whose last level is ranked", async () => {
    const page = await expectJson<Page>(
      await api.post("/search", {
        query: "forklift pallet ladder valve helmet crane trailer sensor battery freezer",
        threshold: 0,
        limit: 1,
      }),
      200,
    );
    expect(page.data[0]?.id).toBe(segmentIds.at(-1));
    expect(page.data[0]?.score).toBeGreaterThanOrEqual(0.97);
  });
});
