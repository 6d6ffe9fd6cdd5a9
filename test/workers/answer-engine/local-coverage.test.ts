import { describe, expect, it } from "vitest";
import type { EngineVideo } from "../../../src/answer-engine/types";
import type { AnswerSpec } from "../../../src/domain/answers";
import type { TextExtent } from "../../../src/domain/evidence";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import { request, video } from "./fixtures";

const HATS: Pick<AnswerSpec, "answer_type" | "description"> = {
  answer_type: "verdict",
  description: "Are hard hats worn?",
};

// Quoted words: their absence from evidence read whole is an answer (words not found otherwise
// are not: the same thing may be said in other words).
const QUOTED: Pick<AnswerSpec, "answer_type" | "description"> = {
  answer_type: "verdict",
  description: 'Is "hard hats" said?',
};

function measured(v: EngineVideo, transcript: Omit<TextExtent, "origin" | "source">[]) {
  return {
    ...v,
    extent: {
      transcript: transcript.map((t) => ({ origin: "captions" as const, source: "t", ...t })),
      scene: { seconds: 0, share: 0 },
      ocr: { seconds: 0, share: 0 },
    },
  };
}

const partial = measured(
  video({ id: "vid_long", duration: 600, cues: [[1, 12, "Welcome to the yard tour."]] }),
  [{ language: "en", seconds: 12, share: 0.02 }],
);
const german = measured(
  video({ id: "vid_de", duration: 20, cues: [[1, 19, "Willkommen zur Sicherheitsunterweisung."]] }),
  [{ language: "de", seconds: 19, share: 0.95 }],
);
const untold = measured(video({ id: "vid_und", duration: 20, cues: [[1, 19, "Okay."]] }), [
  { language: null, seconds: 19, share: 0.95 },
]);

describe("a negative needs full evidence", () => {
  it("is not_checked (partial_coverage) when captions cover 12 s of a 600 s video", () => {
    const a = answerLocally(request(HATS, [partial]));
    expect(a.result_state, JSON.stringify(a)).toBe("not_checked");
    expect(a.reason_code).toBe("partial_coverage");
    expect(a.answer_payload.value).toBeUndefined();
    expect(a.coverage.state).toBe("partial");
  });

  it("still finds what the partial captions say", () => {
    const a = answerLocally(
      request({ answer_type: "verdict", description: "Is the yard tour mentioned?" }, [partial]),
    );
    expect(a.result_state).toBe("found");
  });

  it("gives no zero for a measurement over partial captions", () => {
    const a = answerLocally(
      request(
        { answer_type: "measurement", description: "How many times are hard hats mentioned?" },
        [partial],
      ),
    );
    expect(a.result_state).toBe("not_checked");
    expect(a.answer_payload.value).toBeUndefined();
  });

  it("is not_checked (language_mismatch) when the transcript is in another language", () => {
    const a = answerLocally(request(HATS, [german]));
    expect(a.result_state).toBe("not_checked");
    expect(a.reason_code).toBe("language_mismatch");
    expect(a.answer_payload.summary).toContain("locale (en)");
  });

  it("is not_checked when the transcript's language cannot be told", () => {
    expect(answerLocally(request(HATS, [untold])).reason_code).toBe("language_mismatch");
  });

  it("is not_found when the transcript covers the video in the run's locale", () => {
    const english = measured(german, [{ language: "en", seconds: 19, share: 0.95 }]);
    const a = answerLocally(request(QUOTED, [english]));
    expect(a.result_state).toBe("not_found");
    expect(a.answer_payload.value).toBe(false);
  });

  it("matches the locale by primary language: en-GB runs read eng tracks", () => {
    const videos = [video({ id: "vid_t", duration: 10, cues: [[0, 10, "Nothing about it."]] })];
    const a = answerLocally({ ...request(QUOTED, videos), locale: "en-GB" });
    expect(a.result_state).toBe("not_found");
  });
});

describe("clip is seen and heard", () => {
  const clip = { ...HATS, evidence: { accepted_types: ["clip"] } };
  const captioned = video({
    id: "vid_c",
    duration: 10,
    cues: [[0, 10, "The hard hats are worn here."]],
  });
  const quiet = video({ id: "vid_q", duration: 10, cues: [[0, 10, "Nothing about it."]] });

  it("keeps a found from captions alone", () => {
    expect(answerLocally(request(clip, [captioned])).result_state).toBe("found");
  });

  it("is not_checked for an absence when no frame was seen", () => {
    const a = answerLocally(request(clip, [quiet]));
    expect(a.result_state).toBe("not_checked");
    expect(a.reason_code).toBe("required_evidence_not_extracted");
    expect(a.answer_payload.summary).toContain("clip");
  });

  it("is not_found when transcript and scenes both cover the video", () => {
    const seen = video({
      id: "vid_s",
      duration: 10,
      cues: [[0, 10, "Nothing about it."]],
      // A frame sees about two seconds: frames every 2 s see the whole video.
      scene: [0, 2, 4, 6, 8, 10].map(
        (t) => [t, t, "A yard with pallets."] as [number, number, string],
      ),
      coverage: { scene: true },
    });
    const quotedClip = { ...QUOTED, evidence: { accepted_types: ["clip"] } };
    expect(answerLocally(request(quotedClip, [seen])).result_state).toBe("not_found");
  });
});
