import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { indexKey, probeKey } from "../../../src/lib/object-keys";
import {
  admin,
  type Client,
  client,
  createKey,
  createWorkspace,
  expectJson,
} from "../../helpers/harness";
import type { MediaFixture } from "../../helpers/media-fixtures";
import { storedSegments, uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";

/** Each fixture's private values (test/fixtures/media/make-private-tag-fixtures.sh). */
const PRIVATE: Record<string, { values: string[]; query: string }> = {
  "phone-tags.mov": { values: ["48.8577", "iPhone 15 Pro", "17.4.1"], query: "iPhone 15 Pro" },
  "camera-tags.mov": { values: ["37.4220", "Pixel 8", "Google"], query: "Pixel 8" },
  "device-tags.mkv": { values: ["43.2965", "ZV-1", "Sony", "4012345", "Okafor"], query: "ZV-1" },
};
const FIXTURES = Object.keys(PRIVATE) as MediaFixture[];

interface SearchPage {
  data: { video_id: string; text: string; matches: { kind: string; source: string }[] }[];
}

async function tenant(indexPrivateTags: boolean | undefined) {
  const workspace = await createWorkspace();
  if (indexPrivateTags !== undefined) {
    const changed = await expectJson<{ index_private_tags: boolean }>(
      await admin("PATCH", `/workspaces/${workspace.id}`, {
        index_private_tags: indexPrivateTags,
      }),
      200,
    );
    expect(changed.index_private_tags).toBe(indexPrivateTags);
  }
  const api = client((await createKey(workspace.id)).key);
  const ids: Record<string, string> = {};
  for (const name of FIXTURES) {
    const video = await waitForFinal(api, (await uploadFixture(api, name)).id);
    expect(video.status, JSON.stringify(video)).toBe("completed");
    ids[name] = video.id;
  }
  return { api, ids };
}

function search(api: Client, query: string, videoId: string) {
  return api.post("/search", { query, video_ids: [videoId] });
}

/** Asks whether the clip was recorded on the given device, accepting only container tags. */
async function deviceAnswer(api: Client, videoId: string, device: string) {
  const profileId = await createProfile(api, {
    name: "Recording device",
    description: "Which device recorded the clip",
    instructions: "Say which device recorded the clip.",
    answer_specs: [
      {
        answer_key: "device",
        answer_type: "verdict",
        description: `The clip was recorded with a ${device}`,
        evidence: { accepted_types: ["metadata"], required: true },
      },
    ],
  });
  const accepted = await expectJson<{ id: string }>(
    await api.post("/runs", { kind: "analysis", source_ids: [videoId], profile_id: profileId }),
    202,
  );
  const run = await waitForRun(api, accepted.id);
  expect(run.status, JSON.stringify(run)).toBe("completed");
  const answers = await expectJson<{
    data: {
      result_state: string;
      answer_payload: { items: { evidence: { kind: string; text: string }[] }[] };
    }[];
  }>(await api.get(`/runs/${run.id}/answers`), 200);
  const [answer] = answers.data;
  const evidence = answer?.answer_payload.items.flatMap((item) => item.evidence) ?? [];
  return { state: answer?.result_state, evidence, text: JSON.stringify(answers) };
}

describe("location and device tags in a workspace that has not opted in", () => {
  let api: Client;
  let ids: Record<string, string>;

  beforeAll(async () => {
    ({ api, ids } = await tenant(undefined));
  }, 90_000);

  it.each(FIXTURES)("are neither stored nor shown for %s", async (name) => {
    const id = ids[name] ?? "";
    // The video's usage names the models that processed it: its own words, not a tag's.
    const { usage: _usage, ...video } = (await (await api.get(`/videos/${id}`)).json()) as {
      usage?: unknown;
    };
    const stored = [
      JSON.stringify(await storedSegments(id)),
      (await (await env.MEDIA_BUCKET.get(probeKey(id)))?.text()) ?? "",
      (await (await env.MEDIA_BUCKET.get(indexKey(id)))?.text()) ?? "",
      JSON.stringify(video),
    ].join("\n");
    expect(stored).toContain("Harbour walk");
    for (const value of PRIVATE[name]?.values ?? []) expect(stored).not.toContain(value);
    expect(stored.toLowerCase()).not.toMatch(/location|make|model|serial|owner|©xyz/);
  });

  it.each(FIXTURES)("cannot be found by search in %s", async (name) => {
    const id = ids[name] ?? "";
    const { query, values } = PRIVATE[name] ?? { query: "", values: [] };
    const page = await expectJson<SearchPage>(await search(api, query, id), 200);
    expect(page.data, JSON.stringify(page)).toEqual([]);
    const pier = await expectJson<SearchPage>(await search(api, "ferry north pier", id), 200);
    expect(pier.data.map((r) => r.video_id)).toContain(id);
    const shown = JSON.stringify(pier);
    for (const value of values) expect(shown).not.toContain(value);
  });

  it("cannot be cited by an answer", async () => {
    const answer = await deviceAnswer(api, ids["phone-tags.mov"] ?? "", "iPhone 15 Pro");
    expect(answer.state, answer.text).not.toBe("found");
    expect(answer.evidence.filter((e) => /iphone|quicktime/i.test(e.text))).toEqual([]);
  });
});

describe("location and device tags in a workspace that opted in", () => {
  let api: Client;
  let ids: Record<string, string>;

  beforeAll(async () => {
    ({ api, ids } = await tenant(true));
  }, 90_000);

  it.each(FIXTURES)("are indexed and found by search in %s", async (name) => {
    const id = ids[name] ?? "";
    const { query } = PRIVATE[name] ?? { query: "" };
    const page = await expectJson<SearchPage>(await search(api, query, id), 200);
    const [first] = page.data;
    expect(first?.video_id, JSON.stringify(page)).toBe(id);
    expect(first?.text).toContain(query);
    expect(first?.matches.map((m) => m.kind)).toContain("metadata");
  });

  it("can be cited by an answer", async () => {
    const answer = await deviceAnswer(api, ids["phone-tags.mov"] ?? "", "iPhone 15 Pro");
    // A partial match of the spec's words: cited, and judged uncertain rather than found.
    expect(answer.evidence, answer.text).toContainEqual(
      expect.objectContaining({
        kind: "metadata",
        text: "com.apple.quicktime.model: iPhone 15 Pro",
      }),
    );
  });
});
