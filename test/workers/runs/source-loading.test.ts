import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { database, runBatch } from "../../../src/db/client";
import {
  listSegments,
  listSegmentsOfVideos,
  replaceSegmentsStatements,
  type SegmentRow,
} from "../../../src/db/repos/segments";
import { findVideos } from "../../../src/db/repos/videos";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { loadEngineVideos } from "../../../src/services/runs/engine-input";
import { insertVideos, segmentRow } from "../../helpers/factories";
import { type Client, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import { createProfile } from "../../helpers/runs";

// Sources are read with one query per kind; these pin what the per-video loop did: the
// order of source_ids, which id an error names, and each video's segments in time order.

let api: Client;
let workspaceId: string;
let profileId: string;

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant());
  profileId = await createProfile(api);
});

const UNKNOWN = "vid_00000000000000000000000000";

/** Segments written out of position order, so a query that ignored it would show. */
async function writeSegments(videoId: string, count: number): Promise<void> {
  const rows: SegmentRow[] = [];
  for (let position = count - 1; position >= 0; position--) {
    rows.push(segmentRow(workspaceId, videoId, position));
  }
  const db = database(env.DB);
  await runBatch(db, replaceSegmentsStatements(db, videoId, rows));
}

describe("POST /runs: sources checked in source_ids order", () => {
  it("names the first bad source, whether unknown (404) or not completed (409)", async () => {
    const [done = ""] = await insertVideos(workspaceId, 1);
    const [processing = ""] = await insertVideos(workspaceId, 1, { status: "processing" });
    const other = await newTenant();
    const [foreign = ""] = await insertVideos(other.workspaceId, 1);
    const cases: [string[], number, string, string][] = [
      [[done, processing, UNKNOWN], 409, "conflict", processing],
      [[done, UNKNOWN, processing], 404, "resource-not-found", UNKNOWN],
      [[done, foreign, processing], 404, "resource-not-found", foreign],
      [[processing, foreign], 409, "conflict", processing],
    ];
    for (const [sourceIds, status, code, named] of cases) {
      const body = { source_ids: sourceIds, profile_id: profileId, execute_now: false };
      const problem = await expectProblem(await api.post("/runs", body), status, code);
      expect(problem.detail, JSON.stringify(problem)).toContain(named);
      for (const id of sourceIds.filter((id) => id !== named)) {
        expect(problem.detail, JSON.stringify(problem)).not.toContain(id);
      }
    }
  });

  it("freezes the sources in source_ids order, not the order the store returns", async () => {
    const ids = await insertVideos(workspaceId, 5);
    const sourceIds = [ids[3], ids[0], ids[4], ids[1], ids[2]].map((id) => id ?? "");
    const body = { source_ids: sourceIds, profile_id: profileId, execute_now: false };
    const accepted = await expectJson<RunDto>(await api.post("/runs", body), 202);
    const run = await expectJson<RunDto>(
      await api.get(`/runs/${accepted.id}?expand[]=snapshots`),
      200,
    );
    expect(run.analysis.snapshots?.input).toMatchObject({
      source_ids: sourceIds,
      sources: sourceIds.map((id) => ({ video_id: id })),
    });
    expect(run.analysis.source_ids).toEqual(sourceIds);
  });
});

describe("loadEngineVideos", () => {
  it("keeps source_ids order, skips gone and foreign videos, and orders segments", async () => {
    const [a = "", b = "", empty = ""] = await insertVideos(workspaceId, 3);
    await writeSegments(a, 3);
    await writeSegments(b, 12);
    const other = await newTenant();
    const [foreign = ""] = await insertVideos(other.workspaceId, 1);
    const db = database(env.DB);
    const videos = await loadEngineVideos(db, workspaceId, [b, foreign, UNKNOWN, empty, a]);
    expect(videos.map((v) => v.id)).toEqual([b, empty, a]);
    for (const video of videos) {
      const expected = (await listSegments(db, video.id)).map((s) => s.id);
      expect(video.segments.map((s) => s.id)).toEqual(expected);
      expect(video.segments.map((s) => s.start)).toEqual(
        [...video.segments.map((s) => s.start)].sort((x, y) => x - y),
      );
    }
    expect(videos.map((v) => v.segments.length)).toEqual([12, 0, 3]);
  });
});

describe("batched repo reads", () => {
  it("split ids over D1's 100 bound parameters without losing any", async () => {
    const ids = await insertVideos(workspaceId, 120);
    const db = database(env.DB);
    const found = await findVideos(db, workspaceId, [...ids, UNKNOWN, ...ids.slice(0, 3)]);
    expect(found.map((v) => v.id).sort()).toEqual([...ids].sort());
    const withSegments = ids.slice(100);
    for (const id of withSegments) await writeSegments(id, 2);
    const segments = await listSegmentsOfVideos(db, ids);
    expect(segments.size).toBe(120);
    for (const id of ids) {
      expect(segments.get(id)?.map((s) => s.position)).toEqual(
        withSegments.includes(id) ? [0, 1] : [],
      );
    }
  });

  it("runs no query for no ids", async () => {
    const db = database(env.DB);
    expect(await findVideos(db, workspaceId, [])).toEqual([]);
    expect((await listSegmentsOfVideos(db, [])).size).toBe(0);
  });
});
