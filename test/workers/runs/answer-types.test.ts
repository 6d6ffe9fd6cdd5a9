import { describe, expect, it } from "vitest";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";

interface Answer {
  key: string;
  type: string;
  result_state: string;
  reason_code?: string;
  evidence_count: number;
  event_count: number;
  answer_payload: {
    summary: string;
    value?: unknown;
    items: {
      result_state: string;
      evidence: { video_id: string; segment_id: string; start_time: number; end_time: number }[];
    }[];
  };
}

const transcript = { accepted_types: ["transcript"] };

describe("every answer type, through the API, over the real fixtures", () => {
  it("answers truthfully: found only with evidence from the index, not_checked where nothing was extracted", async () => {
    const { api } = await newTenant();
    const talk = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
    const bike = (await waitForFinal(api, (await uploadFixture(api, "subtitles.mkv")).id)).id;
    const silent = (await waitForFinal(api, (await uploadFixture(api, "silent.mp4")).id)).id;
    const profileId = await createProfile(api, {
      name: "All types",
      instructions: "Review the videos.",
      answer_specs: [
        {
          answer_key: "vests",
          answer_type: "verdict",
          description: "operators must wear high visibility vests",
          evidence: { ...transcript, required: true },
        },
        {
          answer_key: "spill_mentions",
          answer_type: "measurement",
          description: "how many times is a spill mentioned",
          evidence: transcript,
        },
        {
          answer_key: "topics",
          answer_type: "enumeration",
          description: "forklift, spill, fire exits, puncture",
          evidence: transcript,
        },
        {
          answer_key: "events",
          answer_type: "timeline",
          description: "safety briefing",
          evidence: transcript,
        },
        {
          answer_key: "comparison",
          answer_type: "comparison",
          description: "tyre",
          evidence: transcript,
        },
        {
          answer_key: "find_spanner",
          answer_type: "retrieval",
          description: "spanner axle nuts",
          evidence: transcript,
        },
        {
          answer_key: "summary",
          answer_type: "synthesis",
          description: "safety rules and repair steps",
          evidence: transcript,
        },
        {
          answer_key: "signs",
          answer_type: "verdict",
          description: "warning signs on the racking",
          evidence: { accepted_types: ["scene"], required: true },
        },
      ],
    });
    const accepted = await expectJson<RunDto>(
      await api.post("/runs", { source_ids: [talk, bike, silent], profile_id: profileId }),
      202,
    );
    const run = await waitForRun(api, accepted.id);
    expect(run.status).toBe("completed");
    const { data } = await expectJson<{ data: Answer[] }>(
      await api.get(`/runs/${run.id}/answers`),
      200,
    );
    expect(data.map((a) => a.type)).toEqual([
      "verdict",
      "measurement",
      "enumeration",
      "timeline",
      "comparison",
      "retrieval",
      "synthesis",
      "verdict",
    ]);
    const byKey = Object.fromEntries(data.map((a) => [a.key, a]));
    for (const answer of data) {
      const cited = answer.answer_payload.items.flatMap((item) => item.evidence);
      for (const ref of cited) expect([talk, bike, silent]).toContain(ref.video_id);
      if (answer.result_state === "found")
        expect(answer.evidence_count, answer.key).toBeGreaterThan(0);
      else expect(answer.reason_code, answer.key).toBeTruthy();
      if (answer.type === "verdict" && answer.result_state !== "found")
        expect(answer.answer_payload.value).not.toBe(true);
    }
    expect(byKey.vests).toMatchObject({ result_state: "found", answer_payload: { value: true } });
    expect(byKey.find_spanner?.result_state).toBe("found");
    expect(byKey.find_spanner?.answer_payload.items[0]?.evidence[0]?.video_id).toBe(bike);
    expect(byKey.signs).toMatchObject({
      result_state: "not_checked",
      reason_code: "required_evidence_not_extracted",
    });
  });
});
