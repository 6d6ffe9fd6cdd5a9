import { beforeAll, describe, expect, it } from "vitest";
import type { AnyRunDto } from "../../../src/routes/runs/schemas";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, SAFETY_PROFILE, waitForRun } from "../../helpers/runs";

/** One verdict talk.mp4 supports: the case of two videos, one never understood. */
const VESTS_ONLY = {
  ...SAFETY_PROFILE,
  answer_specs: SAFETY_PROFILE.answer_specs.filter((spec) => spec.answer_key === "vests_required"),
};

let api: Client;
let talk: string;
let silent: string;

beforeAll(async () => {
  ({ api } = await newTenant());
  talk = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  silent = (await waitForFinal(api, (await uploadFixture(api, "silent.mp4")).id)).id;
}, 60_000);

describe("a run over a video in which nothing was heard or seen", () => {
  it("says so on the run, naming that video only, when accepted and when read", async () => {
    const profileId = await createProfile(api);
    const accepted = await expectJson<AnyRunDto>(
      await api.post("/runs", { source_ids: [talk, silent], profile_id: profileId }),
      202,
    );
    expect(accepted.notices, JSON.stringify(accepted)).toEqual([
      {
        code: "nothing_understood",
        video_id: silent,
        detail: expect.stringMatching(/^silent\.mp4: Nothing in this video was heard or seen/),
      },
    ]);
    const run = await waitForRun(api, accepted.id);
    expect(run.status).toBe("completed");
    const read = await expectJson<AnyRunDto>(await api.get(`/runs/${accepted.id}`), 200);
    expect(read.notices?.map((n) => n.video_id)).toEqual([silent]);
  });

  it("says so in its reports too: no Pass over the video not checked, the notice carried", async () => {
    const profileId = await createProfile(api, VESTS_ONLY);
    const accepted = await expectJson<AnyRunDto>(
      await api.post("/runs", {
        source_ids: [talk, silent],
        profile_id: profileId,
        formats: ["markdown", "json"],
      }),
      202,
    );
    expect((await waitForRun(api, accepted.id)).status).toBe("completed");
    const list = await expectJson<{ data: { id: string; format: string }[] }>(
      await api.get(`/reports?run_id=${accepted.id}&expand[]=content`),
      200,
    );
    const content = async (format: string) => {
      const report = list.data.find((r) => r.format === format);
      const res = await api.get(`/reports/${report?.id}?expand[]=content`);
      return (await expectJson<{ content: string }>(res, 200)).content;
    };
    const markdown = await content("markdown");
    expect(markdown).toContain(
      "**Verdict:** Found in 1 of 2 videos; 1 not checked — not a pass over all sources\n",
    );
    expect(markdown).not.toMatch(/\bPass\b/);
    expect(markdown).toContain(
      "- **Summary:** 1 found (1 answer); nothing was heard or seen in 1 of 2 sources; 1 answer decided without everything read\n",
    );
    expect(markdown).not.toContain("**Limitations:** None");
    expect(markdown).toMatch(/^ {2}- silent\.mp4: Nothing in this video was heard or seen/m);
    const report = JSON.parse(await content("json")).report;
    expect(report.notices).toEqual(accepted.notices);
    expect(report.limitations.map((l: { code: string }) => l.code)).toEqual([
      "partial_coverage",
      "nothing_understood",
    ]);
  });

  it("carries no notices when every video was understood", async () => {
    const profileId = await createProfile(api);
    const accepted = await expectJson<AnyRunDto>(
      await api.post("/runs", { source_ids: [talk], profile_id: profileId }),
      202,
    );
    expect(accepted.notices).toBeUndefined();
  });
});
