import { describe, expect, it } from "vitest";
import { evidenceId } from "../../../src/answer-engine/evidence-ids";
import { ANSWER_TYPES } from "../../../src/domain/answers";
import { LocalAnswerEngine } from "../../../src/ports/answer-engine/local";
import { request, talk, video } from "./fixtures";

const engine = new LocalAnswerEngine();
const VESTS = "Are forklift operators required to wear high visibility vests?";
const DOCK = "Is the loading dock mentioned?";

describe("LocalAnswerEngine: budget", () => {
  it("with no media budget reads nothing and finds nothing, for every answer type", async () => {
    for (const answer_type of ANSWER_TYPES) {
      const a = await engine.answer(
        request({ answer_type, description: VESTS }, [talk()], { mediaSeconds: 0 }),
      );
      expect(a.result_state, `${answer_type}: ${JSON.stringify(a)}`).toBe("not_checked");
      expect(a.reason_code).toBe("budget_exhausted");
      expect(a.budget_exhausted).toBe(true);
      expect(a.coverage).toEqual({ state: "none", scope: "0 of 1 video" });
      expect(a.evidence_count).toBe(0);
      expect(a.usage.media_seconds).toBe(0);
    }
  });

  it("stops inside a video: what was read can be found, what was not is never absent", async () => {
    // 10 s covers the first segment (0-8.75) but not the second (8.75-16.75).
    const vests = await engine.answer(
      request({ answer_type: "verdict", description: VESTS }, [talk()], { mediaSeconds: 10 }),
    );
    expect(vests.result_state).toBe("found");
    expect(vests.budget_exhausted).toBe(true);
    expect(vests.coverage).toEqual({ state: "partial", scope: "0 of 1 video" });
    expect(vests.usage.media_seconds).toBe(8.75);
    expect(vests.answer_payload.evidence_summary.precision).toBe("limited");

    const dock = await engine.answer(
      request({ answer_type: "verdict", description: DOCK }, [talk()], { mediaSeconds: 10 }),
    );
    expect(dock.result_state).toBe("not_checked");
    expect(dock.reason_code).toBe("budget_exhausted");
    expect(dock.answer_payload.value).toBeUndefined();
  });

  it("reads videos in order and marks the rest not inspected", async () => {
    const second = talk({ id: "vid_second" });
    const first = video({
      id: "vid_first",
      duration: 16,
      cues: [[1, 3, "Nothing about forklifts here."]],
    });
    const a = await engine.answer(
      request({ answer_type: "verdict", description: 'Is "loading dock" said?' }, [first, second], {
        mediaSeconds: 20,
      }),
    );
    expect(a.result_state).toBe("not_checked");
    expect(a.reason_code).toBe("budget_exhausted");
    expect(a.answer_payload.items.map((i) => i.result_state)).toEqual(["not_found", "not_checked"]);
    expect(a.coverage).toEqual({ state: "partial", scope: "1 of 2 videos" });
    expect(a.usage.media_seconds).toBe(16);
    expect(a.answer_payload.summary).toContain("budget ran out");
  });

  it("is exactly enough when the budget equals the durations", async () => {
    const a = await engine.answer(
      request({ answer_type: "verdict", description: DOCK }, [talk()], { mediaSeconds: 24 }),
    );
    expect(a.budget_exhausted).toBe(false);
    expect(a.result_state).toBe("found");
  });
});

describe("LocalAnswerEngine: determinism", () => {
  it("answers the same request with a deep-equal answer, whatever the segment order", async () => {
    for (const answer_type of ANSWER_TYPES) {
      const r = request({ answer_type, description: VESTS }, [talk(), talk({ id: "vid_b" })]);
      const shuffled = structuredClone(r);
      for (const v of shuffled.videos) v.segments.reverse();
      const a = await engine.answer(r);
      expect(await engine.answer(structuredClone(r))).toEqual(a);
      expect(await engine.answer(shuffled)).toEqual(a);
    }
  });

  it("keeps evidence ids stable: evidence_ + 26 hex of FNV-1a over segment|kind|start|end", () => {
    const id = evidenceId("seg_vid_talk_0", "transcript", 5, 8.5);
    expect(id).toMatch(/^evidence_[0-9a-f]{26}$/);
    expect(id).toBe(evidenceId("seg_vid_talk_0", "transcript", 5, 8.5));
    expect(id).not.toBe(evidenceId("seg_vid_talk_1", "transcript", 5, 8.5));
    // Pinned: a change here changes every stored evidence id (bump the engine id).
    expect(id).toBe("evidence_b9ab7faae1d8d2baf5f22652b9");
  });
});
