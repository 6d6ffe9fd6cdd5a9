import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { insertVideos } from "../../helpers/factories";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";

interface Page {
  data: { video_id: string; score: number }[];
  has_more: boolean;
  next_cursor: string | null;
  scope?: {
    videos_searched: number;
    videos_without_understanding: number;
    videos_not_searched: number;
    videos_not_yet_indexed: number;
    videos_failed: number;
    kinds_searched: string[];
    detail: string;
  };
  explanation?: {
    reason: string;
    detail: string;
    threshold: number;
    best_score: number | null;
    suggested_threshold: number | null;
  };
}

/** What the local engine's search reads, and says it cannot. */
const LOCAL_SEARCHED =
  "It searched caption and subtitle tracks, uploaded captions, container tags and filenames. This deployment does not recognise speech, look at pictures or read text written on screen, so words said without captions, what is shown or words written on screen cannot be found.";

let api: Client;
let workspaceId: string;
let talk: string;
let silent: string;

async function search(body: Record<string, unknown>): Promise<Page> {
  return expectJson<Page>(await api.post("/search", body), 200);
}

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS", "SEARCH_CONTENT"]));
  talk = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  silent = (await waitForFinal(api, (await uploadFixture(api, "silent.mp4")).id)).id;
  await insertVideos(workspaceId, 1, { status: "queued", progress: 0 });
  await insertVideos(workspaceId, 1, { status: "processing", progress: 30 });
  await insertVideos(workspaceId, 1, { status: "failed" });
}, 60_000);

describe("a search says what it covered", () => {
  it("counts on a page of results the videos searched, those not, and those nothing was understood of", async () => {
    const page = await search({ query: "fire exits", limit: 1 });
    expect(page.data.length, JSON.stringify(page)).toBe(1);
    expect(page.scope).toEqual({
      videos_searched: 2,
      videos_without_understanding: 1,
      videos_not_searched: 3,
      videos_not_yet_indexed: 2,
      videos_failed: 1,
      kinds_searched: ["transcript", "metadata", "tags", "filename"],
      detail: `2 videos searched. ${LOCAL_SEARCHED} In 1 of them nothing was heard or seen (see media.understood on the video), so only their filenames, titles and tags could match. 3 videos were not searched: 2 are still being uploaded or processed and 1 failed.`,
    });
    expect(page.explanation).toBeUndefined();
  });

  it("counts only the videos named in video_ids, and only on the first page", async () => {
    const first = await search({ query: "the", threshold: 0, limit: 1, video_ids: [talk] });
    expect(first.scope).toMatchObject({
      videos_searched: 1,
      videos_without_understanding: 0,
      videos_not_searched: 0,
    });
    expect(first.scope?.detail).toBe(`1 video searched. ${LOCAL_SEARCHED}`);
    const next = await search({
      query: "the",
      threshold: 0,
      limit: 1,
      video_ids: [talk],
      cursor: first.next_cursor,
    });
    expect(next.data.length).toBe(1);
    expect(next.scope).toBeUndefined();
  });
});

describe("an empty search explains itself", () => {
  it("names what it searched when words written on screen are asked for", async () => {
    const page = await search({ query: "COLD STORAGE" });
    expect(page.explanation).toMatchObject({
      reason: "no_match",
      best_score: null,
      suggested_threshold: null,
    });
    expect(page.explanation?.detail).toBe(
      `No moment of the 2 videos searched holds a word of the query or comes near it in meaning, and no filename holds one. ${LOCAL_SEARCHED} In 1 of them nothing was heard or seen (see media.understood on the video), so only their filenames, titles and tags could match. 3 videos were not searched: 2 are still being uploaded or processed and 1 failed.`,
    );
  });

  it("never suggests a lower threshold for noise: moments near the query in meaning only by chance", async () => {
    const everything = await search({ query: "NO SMOKING", threshold: 0 });
    // Something ranks (a vector neighbour holding no word of the query), far below any match.
    expect(everything.data.length).toBeGreaterThan(0);
    expect(everything.data[0]?.score).toBeLessThan(0.3);
    const page = await search({ query: "NO SMOKING" });
    expect(page.explanation).toMatchObject({
      reason: "no_match",
      best_score: null,
      suggested_threshold: null,
    });
    expect(page.explanation?.detail).not.toContain("threshold");
  });

  it("suggests the threshold at which its matches appear, and how many do", async () => {
    const query = "spill supervisor parking bicycles";
    const page = await search({ query });
    const { explanation } = page;
    expect(explanation?.reason, JSON.stringify(page)).toBe("below_threshold");
    const lower = explanation?.suggested_threshold ?? Number.NaN;
    expect(lower).toBe(Math.floor((explanation?.best_score ?? 0) * 100) / 100);
    const shown = await search({ query, threshold: lower, limit: 100 });
    expect(shown.data.length).toBeGreaterThan(0);
    expect(shown.data[0]?.score).toBe(explanation?.best_score);
    const results = `${shown.data.length} result${shown.data.length === 1 ? "" : "s"}`;
    expect(explanation?.detail).toContain(`Search with threshold ${lower} to see ${results}`);
  });

  it("suggests a threshold only when a search at it shows what it says (property)", async () => {
    const words = ["forklift", "vests", "spill", "dock", "zeppelin", "smoking", "cold", "silent"];
    await fc.assert(
      fc.asyncProperty(fc.subarray(words, { minLength: 1, maxLength: 3 }), async (picked) => {
        const query = picked.join(" ");
        const page = await search({ query, threshold: 0.99 });
        const explanation = page.explanation;
        if (explanation === undefined) return;
        const lower = explanation.suggested_threshold;
        if (lower === null) {
          expect(explanation.reason).not.toBe("below_threshold");
          expect(explanation.detail).not.toContain("Search with threshold");
          return;
        }
        expect(explanation.reason).toBe("below_threshold");
        const shown = await search({ query, threshold: lower, limit: 100 });
        expect(shown.data.length).toBeGreaterThan(0);
        const n = shown.data.length;
        expect(explanation.detail).toContain(`to see ${n} result${n === 1 ? "" : "s"}`);
      }),
      { numRuns: 20 },
    );
  });

  it("says nothing was understood of the videos searched, by name of the remedy", async () => {
    const page = await search({ query: "forklift vests", video_ids: [silent] });
    expect(page.explanation?.reason).toBe("nothing_understood");
    expect(page.explanation?.detail).toContain(LOCAL_SEARCHED);
    expect(page.explanation?.detail).toContain("PUT /videos/{video_id}/captions/{language}");
  });
});
