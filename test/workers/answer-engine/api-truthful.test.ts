import { describe, expect, it } from "vitest";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";

interface Answer {
  key: string;
  result_state: string;
  reason_code?: string;
  answer_payload: { value?: unknown; summary: string };
}

// Over the real API and the real talk.mp4 (captions only: the local index never sees a frame).
describe("truthful answers through the API", () => {
  it("a clip absence over captions alone is not_checked, a clip found from captions stays found, a rule is not an observation, and the report never shows a pass for them", async () => {
    const { api } = await newTenant();
    const talk = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
    const profileId = await createProfile(api, {
      name: "Truthful",
      instructions: "Review the briefing.",
      answer_specs: [
        // No accepted types: the default, clip.
        {
          answer_key: "paint_colour",
          answer_type: "verdict",
          description: "Is a red forklift visible?",
        },
        {
          answer_key: "dock_clip",
          answer_type: "verdict",
          description: "Does the loading dock close at six pm?",
          evidence: { accepted_types: ["clip"] },
        },
        {
          answer_key: "vests_worn",
          answer_type: "verdict",
          description: "Do forklift operators wear high visibility vests?",
          evidence: { accepted_types: ["transcript"] },
        },
      ],
    });
    const accepted = await expectJson<RunDto>(
      await api.post("/runs", { source_ids: [talk], profile_id: profileId }),
      202,
    );
    const run = await waitForRun(api, accepted.id);
    expect(run.status).toBe("completed");
    const { data } = await expectJson<{ data: Answer[] }>(
      await api.get(`/runs/${run.id}/answers`),
      200,
    );
    const byKey = Object.fromEntries(data.map((a) => [a.key, a]));
    // No frame was looked at: "not there" cannot be claimed, whatever the captions say.
    expect(byKey.paint_colour, JSON.stringify(byKey.paint_colour)).toMatchObject({
      result_state: "not_checked",
      reason_code: "required_evidence_not_extracted",
    });
    expect(byKey.paint_colour?.answer_payload.value).toBeUndefined();
    expect(byKey.dock_clip, JSON.stringify(byKey.dock_clip)).toMatchObject({
      result_state: "found",
      answer_payload: { value: true },
    });
    // "Forklift operators must wear high visibility vests." states a rule, not that they did.
    expect(byKey.vests_worn, JSON.stringify(byKey.vests_worn)).toMatchObject({
      result_state: "uncertain",
      reason_code: "instruction_not_observation",
    });
    expect(byKey.vests_worn?.answer_payload.value).toBeUndefined();

    const reports = await expectJson<{ data: { format: string; content?: string }[] }>(
      await api.post(`/runs/${run.id}/reports?expand[]=content`, { formats: ["markdown"] }),
      201,
    );
    const markdown = reports.data[0]?.content ?? "";
    const section = (key: string) => markdown.split(/^## /m).find((s) => s.startsWith(`${key}\n`));
    // Neither a check nobody could make nor an uncertain one may read as a pass.
    expect(section("paint_colour"), markdown).toContain("**Verdict:** Not checked");
    expect(section("paint_colour"), markdown).not.toMatch(/pass/i);
    expect(section("vests_worn"), markdown).toContain("**Verdict:** Uncertain — not a pass");
    expect(section("vests_worn")?.replace("not a pass", ""), markdown).not.toMatch(/pass/i);
    expect(section("dock_clip"), markdown).toContain("**Verdict:** Pass");
  });
});
