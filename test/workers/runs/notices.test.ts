import { beforeAll, describe, expect, it } from "vitest";
import type { AnyRunDto } from "../../../src/routes/runs/schemas";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";

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

  it("carries no notices when every video was understood", async () => {
    const profileId = await createProfile(api);
    const accepted = await expectJson<AnyRunDto>(
      await api.post("/runs", { source_ids: [talk], profile_id: profileId }),
      202,
    );
    expect(accepted.notices).toBeUndefined();
  });
});
