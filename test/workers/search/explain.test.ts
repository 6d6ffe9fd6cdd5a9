import { beforeAll, describe, expect, it } from "vitest";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";

interface Match {
  kind: string;
  source: string;
  text: string;
  start: number;
  end: number;
}
interface Page {
  data: {
    video_id: string;
    score: number;
    time_position: number;
    text: string;
    matches: Match[];
  }[];
  explanation?: {
    reason: string;
    detail: string;
    threshold: number;
    best_score: number | null;
    videos_searched: number;
    videos_without_understanding: number;
  };
}

let api: Client;
let talk: string;

async function search(body: Record<string, unknown>, client: Client = api): Promise<Page> {
  return expectJson<Page>(await client.post("/search", body), 200);
}

beforeAll(async () => {
  ({ api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS", "SEARCH_CONTENT"]));
  talk = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
}, 60_000);

describe("what a search result shows", () => {
  it("shows the cue that matched, with its source and times", async () => {
    const [first] = (await search({ query: "who wears high visibility vests" })).data;
    expect(first, JSON.stringify(first)).toMatchObject({
      video_id: talk,
      time_position: 5,
      text: "Forklift operators must wear high visibility vests.",
      matches: [
        {
          kind: "transcript",
          source: "text-track:0:eng",
          text: "Forklift operators must wear high visibility vests.",
          start: 5,
          end: 8.5,
        },
      ],
    });
    expect(first?.score).toBeGreaterThanOrEqual(0.7);
  });

  it("matches a quoted phrase in a container tag and shows that tag", async () => {
    const page = await search({ query: '"loading dock crew"' });
    expect(page.data.length, JSON.stringify(page)).toBeGreaterThan(0);
    for (const result of page.data) {
      expect(result.text.toLowerCase()).toContain("loading dock crew");
      expect(result.matches.map((m) => m.kind)).toContain("metadata");
    }
  });

  it("never matches a quoted phrase across the seam of two cues, nor shows a result without it", async () => {
    // "…closes at six pm." and "Report every spill…" are two cues of one segment.
    const page = await search({ query: '"six pm report"', threshold: 0 });
    expect(page.data, JSON.stringify(page.data)).toEqual([]);
    for (const result of (await search({ query: '"loading dock"', threshold: 0 })).data) {
      expect(result.text.toLowerCase()).toContain("loading dock");
    }
  });
});

describe("an empty search explains itself", () => {
  it("names the threshold and the best score when matches scored below it", async () => {
    const loose = await search({ query: "spill supervisor parking bicycles", threshold: 0 });
    const best = loose.data[0]?.score ?? 0;
    expect(best).toBeGreaterThan(0);
    expect(best).toBeLessThan(0.7);
    const page = await search({ query: "spill supervisor parking bicycles" });
    expect(page).toMatchObject({
      data: [],
      explanation: {
        reason: "below_threshold",
        threshold: 0.7,
        best_score: best,
        videos_searched: 1,
        videos_without_understanding: 0,
      },
    });
    expect(page.explanation?.detail).toContain(`the best scored ${best}`);
  });

  it("says no moment matched when none holds a word or the meaning", async () => {
    const page = await search({ query: "zeppelin" });
    expect(page).toMatchObject({
      data: [],
      explanation: { reason: "no_match", threshold: 0.7, videos_searched: 1 },
    });
  });

  it("says nothing was understood when the videos have no captions", async () => {
    const other = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS", "SEARCH_CONTENT"]);
    await waitForFinal(other.api, (await uploadFixture(other.api, "silent.mp4")).id);
    const page = await search({ query: "forklift vests" }, other.api);
    expect(page).toMatchObject({
      data: [],
      explanation: {
        reason: "nothing_understood",
        videos_searched: 1,
        videos_without_understanding: 1,
      },
    });
    expect(page.explanation?.detail).toMatch(/caption or subtitle track/);
  });

  it("says there is no video to search in an empty workspace", async () => {
    const empty = await newTenant(["SEARCH_CONTENT"]);
    expect(await search({ query: "forklift" }, empty.api)).toMatchObject({
      data: [],
      explanation: { reason: "no_videos", videos_searched: 0 },
    });
  });
});
