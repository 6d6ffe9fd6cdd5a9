import { describe, expect, it } from "vitest";
import { LocalAnswerEngine } from "../../../src/ports/answer-engine/local";
import { expectCitesIndex, request, silent, talk, video } from "./fixtures";

const engine = new LocalAnswerEngine();
// A rule question: talk.mp4 states the rule ("must wear"); it never says anyone wore one.
const VESTS = "Are forklift operators required to wear high visibility vests?";

describe("LocalAnswerEngine: verdict", () => {
  it("is found, true, with the cue that supports it", async () => {
    const videos = [talk()];
    const a = await engine.answer(
      request({ answer_key: "vests_worn", answer_type: "verdict", description: VESTS }, videos),
    );
    expect(a.result_state, JSON.stringify(a)).toBe("found");
    expect(a.answer_payload.value).toBe(true);
    expect(a.reason_code).toBeUndefined();
    expect(a.coverage).toEqual({ state: "complete", scope: "1 of 1 video" });
    const rep = a.answer_payload.evidence_summary.representative;
    expect(rep.map((r) => [r.kind, r.start_time, r.end_time, r.text])).toEqual([
      ["transcript", 5, 8.5, "Forklift operators must wear high visibility vests."],
    ]);
    expect(rep[0]?.evidence_id).toMatch(/^evidence_[0-9a-f]{26}$/);
    expect(a.evidence_count).toBe(1);
    expect(a.event_count).toBe(1);
    expect(a.answer_payload.evidence_summary).toMatchObject({
      contributing_count: 1,
      // Every probe word in one sentence, but "must" stands between them: not as written.
      precision: "limited",
      drill_down_path: "/api/v1alpha1/runs/run_01test/answers?key=vests_worn",
    });
    expect(a.provenance).toMatchObject({ engine: "local-rules@4", method: "lexical" });
    expect(a.usage).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cached_input_tokens: 0,
      media_seconds: 24,
    });
    expect(a.budget_exhausted).toBe(false);
    expectCitesIndex(a, videos);
  });

  it("is uncertain, never false, when the words are absent: they may be said in other words", async () => {
    const a = await engine.answer(
      request({ answer_type: "verdict", description: "Are hard hats required on the mezzanine?" }, [
        talk(),
      ]),
    );
    expect(a.result_state).toBe("uncertain");
    expect(a.answer_payload.value).toBeUndefined();
    expect(a.reason_code).toBe("no_literal_match");
    expect(a.evidence_count).toBe(0);
  });

  it("is not_found, false, when quoted words were never said in a transcript read whole", async () => {
    const a = await engine.answer(
      request({ answer_type: "verdict", description: 'Is "mezzanine" said?' }, [talk()]),
    );
    expect(a.result_state).toBe("not_found");
    expect(a.answer_payload.value).toBe(false);
    expect(a.reason_code).toBe("no_supporting_evidence");
    expect(a.evidence_count).toBe(0);
    expect(a.answer_payload.evidence_summary.precision).toBe("unknown");
  });

  it("is not_checked when the accepted kind (scene) was never extracted, even if the transcript matches", async () => {
    const a = await engine.answer(
      request(
        {
          answer_type: "verdict",
          description: VESTS,
          evidence: { accepted_types: ["scene"], required: true },
        },
        [talk()],
      ),
    );
    expect(a.result_state).toBe("not_checked");
    expect(a.reason_code).toBe("required_evidence_not_extracted");
    expect(a.answer_payload.value).toBeUndefined();
    expect(a.coverage).toEqual({ state: "none", scope: "0 of 1 video" });
    expect(a.answer_payload.summary).toContain("scene");
  });

  it("is not_checked for a video without a transcript", async () => {
    const a = await engine.answer(
      request({ answer_type: "verdict", description: VESTS }, [silent()]),
    );
    expect(a.result_state).toBe("not_checked");
    expect(a.reason_code).toBe("required_evidence_not_extracted");
  });

  it("finds in partially extracted evidence, but never claims an absence from it", async () => {
    // Production-like: frames described only for the first 30 s, so coverage.scene is false.
    const v = video({
      id: "vid_yard",
      duration: 60,
      scene: [[4, 4, "A forklift operator in a high visibility vest lifts a pallet"]],
    });
    const spec = { answer_type: "verdict" as const, evidence: { accepted_types: ["scene"] } };
    const found = await engine.answer(
      request({ ...spec, description: "forklift operator high visibility vest" }, [v]),
    );
    expect(found.result_state).toBe("found");
    expectCitesIndex(found, [v]);
    const absent = await engine.answer(request({ ...spec, description: "a ladder" }, [v]));
    expect(absent.result_state).toBe("not_checked");
  });

  it("is uncertain below the threshold (most words, not all) and never true", async () => {
    const a = await engine.answer(
      request(
        {
          answer_type: "verdict",
          description: "Do forklift operators wear high visibility vests and helmets?",
        },
        [talk()],
      ),
    );
    expect(a.result_state).toBe("uncertain");
    expect(a.reason_code).toBe("below_threshold");
    expect(a.answer_payload.value).toBeUndefined();
    expect(a.answer_payload.evidence_summary.precision).toBe("limited");
  });

  it("is uncertain when a matching cue negates what the spec looks for", async () => {
    const v = video({
      id: "vid_shop",
      duration: 16,
      cues: [
        [1, 4, "Wear gloves when handling chemicals."],
        [9, 12, "Do not wear gloves near the lathe."],
      ],
    });
    const a = await engine.answer(
      request({ answer_type: "verdict", description: "wear gloves" }, [v]),
    );
    expect(a.result_state).toBe("uncertain");
    expect(a.reason_code).toBe("conflicting_evidence");
    expect(a.answer_payload.value).toBeUndefined();
    expect(a.answer_payload.evidence_summary.representative.map((r) => r.start_time)).toEqual([
      1, 9,
    ]);
    expectCitesIndex(a, [v]);
  });

  it("matches a negative spec to negative evidence, and treats positive evidence as conflicting", async () => {
    const negative = video({
      id: "vid_a",
      duration: 8,
      cues: [[1, 3, "Do not smoke in the warehouse."]],
    });
    const positive = video({
      id: "vid_b",
      duration: 8,
      cues: [[1, 3, "Smoke breaks are at noon."]],
    });
    const spec = {
      answer_type: "verdict" as const,
      description: "Does the talk say not to smoke?",
    };
    expect((await engine.answer(request(spec, [negative]))).result_state).toBe("found");
    expect((await engine.answer(request(spec, [positive]))).result_state).toBe("uncertain");
  });

  it("uses the instruction lines that name the key, and only those", async () => {
    const instructions = [
      'vests_worn: the rule on "high visibility vests".',
      'dock_hours: look for "closing time".',
      "Cite every piece of evidence.",
    ].join("\n");
    const a = await engine.answer(
      request({ answer_key: "vests_worn", answer_type: "verdict" }, [talk()], { instructions }),
    );
    expect(a.result_state).toBe("found");
    expect(a.answer_payload.evidence_summary.representative[0]?.start_time).toBe(5);
    const b = await engine.answer(
      request({ answer_key: "dock_hours", answer_type: "verdict" }, [talk()], { instructions }),
    );
    // Half its words in "The loading dock closes at six pm." ("dock", "closing") and in "Keep
    // fire exits clear of pallets at all times." ("time"): related, so no absence; the vests
    // line (5 s), which names another key, is not used.
    expect(b.result_state).toBe("uncertain");
    expect(b.answer_payload.evidence_summary.representative.map((r) => r.start_time)).toEqual([
      9, 17,
    ]);
  });

  it("takes a key-naming line only when it names the key as a whole word", async () => {
    const instructions = 'Use the checklist: "loading dock".';
    const a = await engine.answer(
      request(
        { answer_key: "check", answer_type: "verdict", description: '"hard hats"' },
        [talk()],
        {
          instructions,
        },
      ),
    );
    expect(a.result_state).toBe("not_found");
  });

  it("across videos: found anywhere is found; an unchecked video is never reported as not_found", async () => {
    const videos = [talk(), silent()];
    const found = await engine.answer(
      request({ answer_type: "verdict", description: VESTS }, videos),
    );
    expect(found.result_state).toBe("found");
    expect(found.coverage).toEqual({ state: "partial", scope: "1 of 2 videos" });
    expect(found.answer_payload.items.map((i) => [i.item_id, i.result_state, i.value])).toEqual([
      ["vid_talk", "found", true],
      ["vid_silent", "not_checked", undefined],
    ]);
    const absent = await engine.answer(
      request({ answer_type: "verdict", description: '"hard hats"' }, videos),
    );
    expect(absent.result_state).toBe("not_checked");
    expect(absent.reason_code).toBe("required_evidence_not_extracted");
    expect(absent.answer_payload.items.map((i) => i.result_state)).toEqual([
      "not_found",
      "not_checked",
    ]);
    const both = await engine.answer(
      request({ answer_type: "verdict", description: '"hard hats"' }, [
        talk(),
        talk({ id: "vid_talk2" }),
      ]),
    );
    expect(both.result_state).toBe("not_found");
    expect(both.coverage).toEqual({ state: "complete", scope: "2 of 2 videos" });
  });

  it("says uncertain when the spec names nothing to look for", async () => {
    const a = await engine.answer(
      request({ answer_key: "check", answer_type: "verdict", description: "Check the video." }, [
        talk(),
      ]),
    );
    expect(a.result_state).toBe("uncertain");
    expect(a.reason_code).toBe("no_probe_terms");
  });
});
