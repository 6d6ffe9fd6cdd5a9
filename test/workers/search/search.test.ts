import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createPorts } from "../../../src/ports";
import { createDeps } from "../../../src/services/deps";
import { indexVideo } from "../../../src/services/search/index-video";
import { insertVideos } from "../../helpers/factories";
import {
  type Client,
  expectJson,
  expectProblem,
  newTenant,
  workerFetch,
} from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";

interface Result {
  id: string;
  video_id: string;
  title: string;
  score: number;
  scene_description: string;
  tags: string[];
  time_position: number;
  image?: string;
  video_url?: string;
}
interface Page {
  data: Result[];
  has_more: boolean;
  next_cursor: string | null;
}

let api: Client;
let workspaceId: string;
const ids: Record<string, string> = {};

async function search(body: Record<string, unknown>, client: Client = api): Promise<Page> {
  return expectJson<Page>(await client.post("/search", body), 200);
}

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS", "SEARCH_CONTENT"]));
  for (const name of ["talk.mp4", "subtitles.mkv", "captions.webm", "minute.mp4"] as const) {
    ids[name] = (await waitForFinal(api, (await uploadFixture(api, name)).id)).id;
  }
}, 60_000);

describe("POST /search", () => {
  it("puts the segment that says the quoted words first, positioned at the cue", async () => {
    const page = await search({ query: '"the loading dock closes at six pm"' });
    const [first] = page.data;
    expect(first).toMatchObject({
      video_id: ids["talk.mp4"],
      title: "Warehouse safety briefing",
      time_position: 9,
    });
    expect(first?.score).toBeGreaterThanOrEqual(0.95);
    expect(first?.id).toMatch(/^seg_/);
  });

  it("finds spoken words without quotes and places time_position inside the segment, at the matching cue", async () => {
    const page = await search({ query: "whisk the eggs with saffron" });
    expect(page.data[0]).toMatchObject({ video_id: ids["captions.webm"], time_position: 4.007 });
    const segment = await env.DB.prepare(
      "SELECT start_time, end_time FROM video_segments WHERE id = ?",
    )
      .bind(page.data[0]?.id ?? "")
      .first<{ start_time: number; end_time: number }>();
    expect(page.data[0]?.time_position).toBeGreaterThanOrEqual(segment?.start_time ?? Number.NaN);
    expect(page.data[0]?.time_position).toBeLessThan(segment?.end_time ?? Number.NaN);
  });

  it("ranks by score, keeps only scores at or above the threshold, and defaults to 0.7", async () => {
    const loose = await search({
      query: "safety vests for forklift drivers",
      threshold: 0,
      limit: 100,
    });
    const scores = loose.data.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(loose.data[0]?.video_id).toBe(ids["talk.mp4"]);
    const strict = await search({ query: "safety vests for forklift drivers" });
    expect(strict.data.every((r) => r.score >= 0.7)).toBe(true);
    expect(strict.data.length).toBeLessThan(loose.data.length);
    expect((await search({ query: "soup recipe with lentils" })).data).toEqual([]);
  });

  it("pages with limit and a cursor bound to the same search", async () => {
    const all = await search({ query: "the", threshold: 0, limit: 100 });
    expect(all.data.length).toBeGreaterThan(3);
    const first = await search({ query: "the", threshold: 0, limit: 2 });
    expect(first).toMatchObject({ has_more: true });
    expect(first.data).toHaveLength(2);
    const second = await search({
      query: "the",
      threshold: 0,
      limit: 2,
      cursor: first.next_cursor,
    });
    expect([...first.data, ...second.data].map((r) => r.id)).toEqual(
      all.data.slice(0, 4).map((r) => r.id),
    );
    const foreign = await api.post("/search", {
      query: "other",
      threshold: 0,
      limit: 2,
      cursor: first.next_cursor,
    });
    expect((await expectProblem(foreign, 400, "invalid-request")).errors?.[0]?.path).toBe("cursor");
  });

  it("filters by video_ids and answers 404 when any id is not visible", async () => {
    const page = await search({ query: "the", threshold: 0, video_ids: [ids["minute.mp4"]] });
    expect(page.data.length).toBeGreaterThan(0);
    expect(new Set(page.data.map((r) => r.video_id))).toEqual(new Set([ids["minute.mp4"]]));
    await expectProblem(
      await api.post("/search", {
        query: "the",
        video_ids: [ids["minute.mp4"], "vid_00000000000000000000000000"],
      }),
      404,
      "resource-not-found",
    );
    const other = await newTenant(["SEARCH_CONTENT"]);
    await expectProblem(
      await other.api.post("/search", { query: "the", video_ids: [ids["talk.mp4"]] }),
      404,
      "resource-not-found",
    );
    // Any id that is not visible is a 404, however it is spelled.
    await expectProblem(
      await api.post("/search", { query: "the", video_ids: ["x".repeat(300)] }),
      404,
      "resource-not-found",
    );
    // An empty filter selects no video, and the answer says so.
    expect(await search({ query: "the", threshold: 0, video_ids: [] })).toMatchObject({
      data: [],
      has_more: false,
      next_cursor: null,
      explanation: { reason: "no_videos", videos_searched: 0, best_score: null },
    });
  });

  it("takes an Idempotency-Key like every POST: a replay is identical, another body 422", async () => {
    const body = { query: "fire exits", threshold: 0 };
    const first = await api.post("/search", body, { "Idempotency-Key": "search-once" });
    const again = await api.post("/search", body, { "Idempotency-Key": "search-once" });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    await expectProblem(
      await api.post("/search", { query: "forklift" }, { "Idempotency-Key": "search-once" }),
      422,
      "idempotency-key-mismatch",
    );
    await expectProblem(
      await api.post("/search", body, { "Idempotency-Key": "k".repeat(256) }),
      400,
      "invalid-request",
    );
  });

  it("never returns another workspace's videos", async () => {
    const other = await newTenant(["SEARCH_CONTENT"]);
    expect((await search({ query: "forklift", threshold: 0 }, other.api)).data).toEqual([]);
  });

  it("returns only completed videos", async () => {
    const id = ids["minute.mp4"] ?? "";
    await env.DB.prepare("UPDATE videos SET status = 'processing' WHERE id = ?").bind(id).run();
    const page = await search({ query: "barcode inventory aisle", threshold: 0, limit: 100 });
    expect(page.data.some((r) => r.video_id === id)).toBe(false);
    await env.DB.prepare("UPDATE videos SET status = 'completed' WHERE id = ?").bind(id).run();
  });

  it("gives a signed thumbnail and a signed video URL that plays from time_position", async () => {
    const [result] = (await search({ query: "fire exits" })).data;
    expect(result?.video_url).toMatch(new RegExp(`#t=${result?.time_position}$`));
    const video = await workerFetch((result?.video_url ?? "").replace(/#.*$/, ""), {
      headers: { range: "bytes=0-99" },
    });
    expect(video.status).toBe(206);
    expect(video.headers.get("content-range")).toMatch(/^bytes 0-99\//);
    expect((await workerFetch(result?.image ?? "")).status).toBe(200);
  });

  it("validates the body and names the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, "query"],
      [{ query: "" }, "query"],
      [{ query: "   " }, "query"],
      [{ query: "x".repeat(1001) }, "query"],
      [{ query: "x", limit: 0 }, "limit"],
      [{ query: "x", limit: 101 }, "limit"],
      [{ query: "x", threshold: -0.1 }, "threshold"],
      [{ query: "x", threshold: 1.5 }, "threshold"],
      [{ query: "x", video_ids: Array.from({ length: 101 }, (_, i) => `vid_${i}`) }, "video_ids"],
      [{ query: "x", mode: "fast" }, "mode"],
    ];
    for (const [body, field] of cases) {
      const problem = await expectProblem(await api.post("/search", body), 400, "invalid-request");
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(body),
      ).toContain(field);
    }
  });
});

describe("indexing for search", () => {
  it("leaves a video unsearchable and not completed when its vectors cannot be written", async () => {
    const [id = ""] = await insertVideos(workspaceId, 1, { status: "processing" });
    await env.DB.prepare(
      "INSERT INTO video_segments (id, video_id, workspace_id, position, start_time, end_time, scene_description, transcript, tags, evidence, created_at) VALUES (?, ?, ?, 0, 0, 5, 'x', 'unicorn parade', '[]', '[]', ?)",
    )
      .bind(`seg_${id.slice(4)}_00000`, id, workspaceId, new Date().toISOString())
      .run();
    const failing = {
      ...createPorts(env),
      vectorIndex: {
        ...createPorts(env).vectorIndex,
        upsert: () => Promise.reject(new Error("index down")),
      },
    };
    await expect(
      indexVideo(createDeps(env, failing), {
        type: "index-video",
        video_id: id,
        workspace_id: workspaceId,
      }),
    ).rejects.toThrow("index down");
    expect(await expectJson(await api.get(`/videos/${id}`), 200)).toMatchObject({
      status: "processing",
    });
    const before = await search({ query: "unicorn parade", threshold: 0, limit: 100 });
    expect(before.data.filter((r) => r.video_id === id)).toEqual([]);
    await indexVideo(createDeps(env, createPorts(env)), {
      type: "index-video",
      video_id: id,
      workspace_id: workspaceId,
    });
    const after = (await search({ query: "unicorn parade" })).data[0];
    expect(after?.video_id).toBe(id);
    expect(after?.score).toBeGreaterThanOrEqual(0.97);
  });
});
