import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AnyRunDto } from "../../../src/routes/runs/schemas";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { uploadVideo, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";

interface Match {
  kind: string;
  source: string;
  text: string;
  start: number;
  end: number;
}
interface Result {
  id: string;
  video_id: string;
  title: string;
  score: number;
  time_position: number;
  text: string;
  matches: Match[];
}
interface Page {
  data: Result[];
}

let api: Client;
/** silent.mp4 (nothing heard or seen) named for what it shows. */
let cold: string;
/** talk.mp4 (captions about forklifts) under a name holding a word it never says. */
let briefing: string;
/** silent.mp4 named with a word talk.mp4 says. */
let yard: string;

async function search(body: Record<string, unknown>, client: Client = api): Promise<Page> {
  return expectJson<Page>(await client.post("/search", body), 200);
}

async function upload(client: Client, filename: string, fixture: "silent.mp4" | "talk.mp4") {
  const video = await uploadVideo(client, filename, fixtureBytes(fixture));
  return (await waitForFinal(client, video.id)).id;
}

const byFilename = (page: Page) =>
  page.data.filter((result) => result.matches.some((match) => match.kind === "filename"));

beforeAll(async () => {
  ({ api } = await newTenant());
  cold = await upload(api, "COLD_STORAGE walkthrough.mp4", "silent.mp4");
  briefing = await upload(api, "dock7-briefing.mp4", "talk.mp4");
  yard = await upload(api, "forklift-yard.mov", "silent.mp4");
}, 60_000);

describe("a search finds a video by the words of its filename", () => {
  it("at the video's start, citing the filename as its own kind, at the default threshold", async () => {
    const page = await search({ query: "cold storage" });
    expect(page.data, JSON.stringify(page)).toHaveLength(1);
    expect(page.data[0]).toMatchObject({
      video_id: cold,
      title: "COLD_STORAGE walkthrough.mp4",
      score: 0.8245,
      time_position: 0,
      text: "COLD_STORAGE walkthrough.mp4",
      matches: [
        {
          kind: "filename",
          source: "filename",
          text: "COLD_STORAGE walkthrough.mp4",
          start: 0,
          end: 0,
        },
      ],
    });
    expect(page.data[0]?.id).toMatch(new RegExp(`^seg_${cold.slice(4)}_`));
  });

  it("scores a filename holding some of the words lower, as it would a moment", async () => {
    const all = await search({ query: "cold storage walkthrough" });
    const part = await search({ query: "cold room", threshold: 0 });
    expect(all.data[0]?.score).toBe(0.8245);
    // Half the words: 0.85 × 0.5² × 0.85.
    expect(byFilename(part).map((r) => [r.video_id, r.score])).toEqual([[cold, 0.1806]]);
  });

  it("ranks a filename below the same word said in a video", async () => {
    const page = await search({ query: "forklift" });
    const said = page.data.filter((r) => r.video_id === briefing);
    expect(said.length, JSON.stringify(page)).toBeGreaterThan(0);
    const named = byFilename(page);
    expect(named.map((r) => r.video_id)).toEqual([yard]);
    expect(Math.min(...said.map((r) => r.score))).toBeGreaterThan(named[0]?.score ?? 1);
    expect(page.data.at(-1)?.video_id).toBe(yard);
  });

  it("shows a video found by what it holds once, never again for its filename", async () => {
    const page = await search({ query: "briefing", threshold: 0 });
    expect(page.data.some((r) => r.video_id === briefing)).toBe(true);
    expect(byFilename(page)).toEqual([]);
    // Its filename alone finds it when nothing in it says the word.
    const named = await search({ query: "dock7" });
    expect(named.data.map((r) => [r.video_id, r.matches[0]?.kind])).toEqual([
      [briefing, "filename"],
    ]);
  });

  it("requires a quoted phrase as written in the filename, and never matches its extension", async () => {
    expect(byFilename(await search({ query: '"storage cold"', threshold: 0 }))).toEqual([]);
    expect(byFilename(await search({ query: '"cold storage"' })).map((r) => r.video_id)).toEqual([
      cold,
    ]);
    expect(byFilename(await search({ query: "mp4 mov", threshold: 0 }))).toEqual([]);
  });

  it("keeps to video_ids and to the workspace", async () => {
    expect((await search({ query: "cold storage", video_ids: [yard] })).data).toEqual([]);
    const other = await newTenant(["SEARCH_CONTENT"]);
    expect((await search({ query: "cold storage", threshold: 0 }, other.api)).data).toEqual([]);
  });

  it("leaves out a video being processed again, and a deleted one for good", async () => {
    const id = await upload(api, "freezer-aisle.mp4", "silent.mp4");
    expect(byFilename(await search({ query: "freezer aisle" })).map((r) => r.video_id)).toEqual([
      id,
    ]);
    await env.DB.prepare("UPDATE videos SET status = 'processing' WHERE id = ?").bind(id).run();
    expect((await search({ query: "freezer aisle" })).data).toEqual([]);
    await env.DB.prepare("UPDATE videos SET status = 'completed' WHERE id = ?").bind(id).run();
    expect((await api.request("DELETE", `/videos/${id}`)).status).toBe(204);
    const after = await search({ query: "freezer aisle", threshold: 0 });
    expect(after.data.filter((r) => r.video_id === id)).toEqual([]);
    const indexed = await env.DB.prepare(
      "SELECT count(*) AS n FROM video_filename_search WHERE video_id = ?",
    )
      .bind(id)
      .first<{ n: number }>();
    expect(indexed?.n).toBe(0);
  });
});

describe("a filename is never evidence", () => {
  it("an answer about what the filename says stays not checked", async () => {
    const profileId = await createProfile(api, {
      name: "Cold storage",
      instructions: "Review the walkthrough.",
      answer_specs: [
        {
          answer_key: "cold_storage",
          answer_type: "verdict",
          description: "the walkthrough shows the cold storage",
          evidence: { accepted_types: ["transcript"], required: true },
        },
      ],
    });
    const accepted = await expectJson<AnyRunDto>(
      await api.post("/runs", { source_ids: [cold], profile_id: profileId }),
      202,
    );
    expect((await waitForRun(api, accepted.id)).status).toBe("completed");
    const answers = await expectJson<{ data: { key: string; result_state: string }[] }>(
      await api.get(`/runs/${accepted.id}/answers`),
      200,
    );
    expect(answers.data.map((a) => [a.key, a.result_state])).toEqual([
      ["cold_storage", "not_checked"],
    ]);
  });
});
