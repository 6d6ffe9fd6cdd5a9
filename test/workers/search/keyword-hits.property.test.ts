import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { database, runBatch } from "../../../src/db/client";
import { keywordHits, replaceSearchTextStatements } from "../../../src/db/repos/search";
import { keywordLevels } from "../../../src/lib/text/search-scoring";

const WORDS = ["forklift", "pallet", "ladder", "valve", "helmet"];

/** Keyword retrieval as it was before the levels shared one statement: each level alone. */
async function levelByLevel(workspaceId: string, query: string, limit: number): Promise<string[]> {
  const db = database(env.DB);
  const kept = new Set<string>();
  for (const { expression, ranked } of keywordLevels(query)) {
    const rows = await db.all<{ segment_id: string }>(
      sql`SELECT segment_id FROM segment_search WHERE segment_search MATCH ${expression} AND workspace_id = ${workspaceId}${ranked ? sql` ORDER BY rank` : sql``} LIMIT ${limit}`,
    );
    for (const row of rows) if (kept.size < limit) kept.add(row.segment_id);
  }
  return [...kept];
}

let workspaces = 0;

describe("keywordHits", () => {
  it("finds exactly what running each level alone and keeping the first `limit` finds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.subarray(WORDS, { minLength: 1 }), { minLength: 1, maxLength: 12 }),
        fc.subarray(WORDS, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 8 }),
        async (segments, queryWords, limit) => {
          const workspaceId = `ws_keyword_hits_${++workspaces}`;
          const db = database(env.DB);
          await runBatch(
            db,
            replaceSearchTextStatements(
              db,
              `vid_${workspaceId}`,
              segments.map((words, i) => ({
                segmentId: `seg_${workspaceId}_${i}`,
                workspaceId,
                videoId: `vid_${workspaceId}`,
                body: words.join(" "),
              })),
            ),
          );
          const query = queryWords.join(" ");
          const hits = await keywordHits(db, workspaceId, keywordLevels(query), undefined, limit);
          expect(hits.map((hit) => hit.segmentId)).toEqual(
            await levelByLevel(workspaceId, query, limit),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("skips a level once the levels before it found `limit` segments", async () => {
    const workspaceId = "ws_keyword_hits_skip";
    const db = database(env.DB);
    const bodies = ["forklift pallet", "forklift pallet", "forklift", "pallet"];
    await runBatch(
      db,
      replaceSearchTextStatements(
        db,
        "vid_keyword_hits_skip",
        bodies.map((body, i) => ({
          segmentId: `seg_skip_${i}`,
          workspaceId,
          videoId: "vid_keyword_hits_skip",
          body,
        })),
      ),
    );
    const levels = keywordLevels("forklift pallet");
    const ids = async (limit: number) =>
      (await keywordHits(db, workspaceId, levels, undefined, limit)).map((hit) => hit.segmentId);
    expect(await ids(2)).toEqual(["seg_skip_0", "seg_skip_1"]);
    expect(await ids(3)).toEqual(["seg_skip_0", "seg_skip_1", "seg_skip_2"]);
    expect(await ids(10)).toEqual(["seg_skip_0", "seg_skip_1", "seg_skip_2", "seg_skip_3"]);
  });
});
