import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { database, runBatch } from "../../../src/db/client";
import { candidateSegments, replaceSearchTextStatements } from "../../../src/db/repos/search";
import { replaceSegmentsStatements } from "../../../src/db/repos/segments";
import { type KeywordLevel, keywordLevels } from "../../../src/lib/text/search-scoring";
import { insertVideos, segmentRow } from "../../helpers/factories";
import { newTenant } from "../../helpers/harness";

const WORDS = ["forklift", "pallet", "ladder", "valve", "helmet"];

/**
 * Keyword retrieval as it was before the levels shared one statement and the index matched
 * the workspace: each level alone over every workspace's words, then the workspace kept.
 */
async function levelByLevel(workspaceId: string, query: string, limit: number): Promise<string[]> {
  const db = database(env.DB);
  const kept = new Set<string>();
  for (const { expression, ranked } of keywordLevels(query)) {
    const rows = await db.all<{ segment_id: string }>(
      sql`SELECT segment_id FROM segment_search WHERE segment_search MATCH ${`body : (${expression})`} AND workspace_id = ${workspaceId} ORDER BY ${ranked ? sql`rank` : sql`rowid`} LIMIT ${limit}`,
    );
    for (const row of rows) if (kept.size < limit) kept.add(row.segment_id);
  }
  return [...kept];
}

/** A workspace with one video in `status` whose segments say `bodies`, indexed for keywords. */
async function seed(
  bodies: string[],
  status: "completed" | "processing" = "completed",
  into?: string,
) {
  const workspaceId = into ?? (await newTenant()).workspaceId;
  const [videoId = ""] = await insertVideos(workspaceId, 1, { status });
  const db = database(env.DB);
  const segments = bodies.map((body, i) =>
    segmentRow(workspaceId, videoId, i, { transcript: body }),
  );
  await runBatch(db, [
    ...replaceSegmentsStatements(db, videoId, segments),
    ...replaceSearchTextStatements(
      db,
      videoId,
      segments.map((segment) => ({
        segmentId: segment.id,
        workspaceId,
        videoId,
        body: segment.transcript,
      })),
    ),
  ]);
  return { db, workspaceId, segmentIds: segments.map((segment) => segment.id) };
}

/** The keyword hits alone: the candidates when the index matched nothing. */
function keywordSegments(
  db: ReturnType<typeof database>,
  workspaceId: string,
  levels: KeywordLevel[],
  limit: number,
) {
  return candidateSegments(db, workspaceId, { levels, videoIds: undefined, limit }, []);
}

async function keywordIds(bodies: string[], query: string, limit: number) {
  const { db, workspaceId } = await seed(bodies);
  const found = await keywordSegments(db, workspaceId, keywordLevels(query), limit);
  return { found: found.map((hit) => hit.segment.id).sort(), workspaceId };
}

describe("candidateSegments: keyword hits", () => {
  it("finds exactly what running each level alone and keeping the first `limit` finds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.subarray(WORDS, { minLength: 1 }), { minLength: 1, maxLength: 12 }),
        fc.subarray(WORDS, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 8 }),
        async (segments, queryWords, limit) => {
          const query = queryWords.join(" ");
          const { found, workspaceId } = await keywordIds(
            segments.map((words) => words.join(" ")),
            query,
            limit,
          );
          expect(found).toEqual((await levelByLevel(workspaceId, query, limit)).sort());
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps the best level first and each level in index order, cutting at `limit`", async () => {
    const bodies = ["forklift", "pallet", "forklift", ...Array(3).fill("forklift pallet")];
    const ids = async (limit: number) =>
      (await keywordIds(bodies, "forklift pallet", limit)).found.map((id) => id.slice(-2));
    expect(await ids(3)).toEqual(["03", "04", "05"]);
    expect(await ids(4)).toEqual(["00", "03", "04", "05"]);
    expect(await ids(10)).toEqual(["00", "01", "02", "03", "04", "05"]);
  });

  it("finds a workspace's segments beside another workspace's, and never by its id", async () => {
    const crowd = await seed(Array(12).fill("forklift pallet"));
    const mine = await seed(["pallet jack", "forklift"]);
    const levels = keywordLevels("forklift pallet");
    const ids = async ({ db, workspaceId }: typeof mine, limit: number) =>
      (await keywordSegments(db, workspaceId, levels, limit)).map((hit) =>
        hit.segment.id.slice(-2),
      );
    expect((await ids(mine, 10)).sort()).toEqual(["00", "01"]);
    expect(await ids(crowd, 10)).toHaveLength(10);
    // The words of a workspace id are in the index, in its own column: a query holding them
    // finds nothing.
    const [, ulid = ""] = mine.workspaceId.split("_");
    for (const query of [mine.workspaceId, ulid, `ws ${ulid}`]) {
      expect(await keywordSegments(mine.db, mine.workspaceId, keywordLevels(query), 10)).toEqual(
        [],
      );
    }
  });

  it("ranks by BM25 over the words alone, not the workspace column", async () => {
    const { db, workspaceId } = await seed(["forklift", "forklift forklift pallet", "a forklift"]);
    const match = `workspace_id : "${workspaceId}" AND body : ("forklift")`;
    const rows = await db.all<{ rank: number; body_only: number; every_column: number }>(
      sql`SELECT rank, bm25(segment_search, 1.0, 0.0, 0.0, 0.0) AS body_only, bm25(segment_search) AS every_column FROM segment_search WHERE segment_search MATCH ${match}`,
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.rank).toBeCloseTo(row.body_only, 9);
      expect(row.every_column).not.toBeCloseTo(row.body_only, 3);
    }
  });

  it("leaves out segments of videos that are not completed", async () => {
    const { db, workspaceId } = await seed(["forklift pallet"], "processing");
    expect(await keywordSegments(db, workspaceId, keywordLevels("forklift"), 10)).toEqual([]);
  });
});

describe("candidateSegments: the index's matches beside the keyword hits", () => {
  it("reads the matches named and the keyword hits in one list, each segment once", async () => {
    const mine = await seed(["forklift pallet", "ladder", "valve"]);
    const [forklift = "", ladder = ""] = mine.segmentIds;
    const found = await candidateSegments(
      mine.db,
      mine.workspaceId,
      { levels: keywordLevels("forklift"), videoIds: undefined, limit: 10 },
      [ladder, forklift],
    );
    expect(found.map((hit) => hit.segment.id).sort()).toEqual([forklift, ladder].sort());
    expect(found.find((hit) => hit.segment.id === ladder)?.segment.transcript).toBe("ladder");
  });

  it("reads the matches alone when the query has no keyword to look for", async () => {
    const mine = await seed(["forklift pallet", "ladder"]);
    const found = await candidateSegments(
      mine.db,
      mine.workspaceId,
      { levels: [], videoIds: undefined, limit: 10 },
      mine.segmentIds.slice(1),
    );
    expect(found.map((hit) => hit.segment.id)).toEqual(mine.segmentIds.slice(1));
    expect(
      await candidateSegments(
        mine.db,
        mine.workspaceId,
        { levels: [], videoIds: undefined, limit: 10 },
        [],
      ),
    ).toEqual([]);
  });

  it("leaves out named segments of another workspace, of unfinished videos and unknown ones", async () => {
    const mine = await seed(["forklift pallet"]);
    const unfinished = await seed(["ladder"], "processing", mine.workspaceId);
    const theirs = await seed(["ladder"]);
    const found = await candidateSegments(
      mine.db,
      mine.workspaceId,
      { levels: keywordLevels("ladder"), videoIds: undefined, limit: 10 },
      [...unfinished.segmentIds, ...theirs.segmentIds, "seg_unknown_00000", ...mine.segmentIds],
    );
    expect(found.map((hit) => hit.segment.id)).toEqual(mine.segmentIds);
  });
});
