import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPorts } from "../../../src/ports";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { createDeps } from "../../../src/services/deps";
import { executeRun } from "../../../src/services/runs/execute-run";
import { expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, SAFETY_PROFILE, waitForRun } from "../../helpers/runs";
import { countingBindings } from "../../helpers/subrequests";

const SPECS = 50;

describe("subrequests of one run's execution", () => {
  it("executes a 50-spec analysis run with its reports in under 1,000 subrequests", async () => {
    const { api, workspaceId } = await newTenant();
    const videos: string[] = [];
    for (const name of ["talk.mp4", "silent.mp4"] as const)
      videos.push((await waitForFinal(api, (await uploadFixture(api, name)).id)).id);
    const [first] = SAFETY_PROFILE.answer_specs;
    const profileId = await createProfile(api, {
      ...SAFETY_PROFILE,
      answer_specs: Array.from({ length: SPECS }, (_, i) => ({ ...first, answer_key: `q${i}` })),
    });
    const run = await expectJson<RunDto>(
      await api.post("/runs", {
        source_ids: videos,
        profile_id: profileId,
        formats: ["json", "markdown"],
        execute_now: false,
      }),
      202,
    );
    // The queue consumer's invocation, with every binding it reaches counted.
    const counting = countingBindings(env);
    const deps = createDeps(counting.env, createPorts(counting.env));
    await counting.measure(() =>
      executeRun(deps, { type: "run-analysis", run_id: run.id, workspace_id: workspaceId }),
    );
    const done = await waitForRun(api, run.id);
    expect(done.status).toBe("completed");
    expect(done.analysis.answer_references).toHaveLength(SPECS);
    console.log(`50-spec run: ${counting.total()} subrequests`, counting.counts);
    expect(counting.total(), JSON.stringify(counting.counts)).toBeLessThan(1_000);
    // Each step's claim checks for cancellation in D1; the run's object is reached only to
    // begin and to finish the run.
    expect(counting.counts["durable-object"]).toBeLessThanOrEqual(3);
  }, 120_000);
});
