import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { absenceGap, kindRequirement } from "../../../src/answer-engine/evidence-kinds";
import type { AnswerRequest, EngineSegment, EngineVideo } from "../../../src/answer-engine/types";
import { ANSWER_TYPES } from "../../../src/domain/answers";
import type { EvidenceKind } from "../../../src/domain/evidence";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import { citedRefs, existsInIndex } from "./fixtures";

// A small vocabulary, so that random specs and random evidence do match each other.
const WORDS = [
  "forklift",
  "vests",
  "wear",
  "gloves",
  "dock",
  "spill",
  "report",
  "pallets",
  "exit",
  "ladder",
];
const FILLER = ["not", "never", "the", "must", "without", "and"];
const KINDS: EvidenceKind[] = ["transcript", "scene", "ocr", "metadata", "thumbnail"];

const phrase = fc
  .array(fc.constantFrom(...WORDS, ...FILLER), { minLength: 1, maxLength: 7 })
  .map((w) => `${w.join(" ")}.`);

const spanShape = fc.record({
  kind: fc.constantFrom(...KINDS),
  offset: fc.integer({ min: 0, max: 20 }),
  length: fc.integer({ min: 0, max: 8 }),
  text: phrase,
});

interface VideoShape {
  /** Segment lengths in half seconds. */
  lengths: number[];
  spans: { kind: EvidenceKind; offset: number; length: number; text: string }[][];
  coverage: EngineVideo["coverage"];
}

const videoShape: fc.Arbitrary<VideoShape> = fc.record({
  lengths: fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 0, maxLength: 4 }),
  spans: fc.array(fc.array(spanShape, { maxLength: 4 }), { minLength: 4, maxLength: 4 }),
  coverage: fc.record({
    transcript: fc.boolean(),
    ocr: fc.boolean(),
    scene: fc.boolean(),
    metadata: fc.boolean(),
  }),
});

function build(index: number, shape: VideoShape): EngineVideo {
  let at = 0;
  const segments = shape.lengths.map((half, j): EngineSegment => {
    const start = at;
    const end = at + half / 2;
    at = end;
    const evidence = (shape.spans[j] ?? []).map((s) => {
      const from = start + Math.min(s.offset / 4, half / 2);
      return {
        kind: s.kind,
        start: from,
        end: from + s.length / 4,
        text: s.text,
        source: "generated",
      };
    });
    return {
      id: `seg_${index}_${j}`,
      start,
      end,
      transcript: evidence
        .filter((e) => e.kind === "transcript")
        .map((e) => e.text)
        .join(" "),
      scene_description: "",
      tags: [],
      evidence,
    };
  });
  return {
    id: `vid_${index}`,
    title: `Video ${index}`,
    duration: at,
    coverage: shape.coverage,
    limitations: [],
    segments,
  };
}

const requestShape = fc.record({
  videos: fc.array(videoShape, { minLength: 1, maxLength: 3 }),
  answer_type: fc.constantFrom(...ANSWER_TYPES),
  description: fc.option(phrase, { nil: undefined }),
  accepted: fc.subarray(["clip", "transcript", "scene", "ocr", "metadata", "thumbnail", "bogus"]),
  fields: fc.array(fc.record({ key: fc.constantFrom("a", "b", "c"), label: phrase }), {
    maxLength: 3,
  }),
  media: fc.oneof(fc.constant(1_000_000), fc.integer({ min: 0, max: 60 })),
});

type RequestShape = typeof requestShape extends fc.Arbitrary<infer T> ? T : never;

function toRequest(r: RequestShape): AnswerRequest {
  return {
    run_id: "run_prop",
    instructions: "",
    spec: {
      answer_key: "prop_key",
      answer_type: r.answer_type,
      ...(r.description === undefined ? {} : { description: r.description }),
      evidence: { accepted_types: r.accepted },
      fields: r.fields,
    },
    videos: r.videos.map((v, i) => build(i, v)),
    locale: "en",
    budget: { media_seconds: r.media, tokens: 0 },
  };
}

describe("LocalAnswerEngine properties", () => {
  it("never finds without evidence that exists, never claims an absence it could not check", () => {
    fc.assert(
      fc.property(requestShape, (shape) => {
        const req = toRequest(shape);
        const answer = answerLocally(req);
        const refs = citedRefs(answer);
        for (const ref of refs)
          expect(existsInIndex(ref, req.videos), JSON.stringify(ref)).toBe(true);
        // The representative refs are a sample: the count covers everything the answer rests on.
        expect(answer.evidence_count).toBeGreaterThanOrEqual(
          new Set(refs.map((r) => r.evidence_id)).size,
        );
        expect(answer.answer_payload.evidence_summary.contributing_count).toBeLessThanOrEqual(
          answer.evidence_count,
        );
        if (answer.result_state === "found") {
          expect(answer.answer_payload.evidence_summary.representative.length).toBeGreaterThan(0);
        }
        if (answer.result_state === "not_found") {
          const requirement = kindRequirement(req.spec);
          expect(
            req.videos.every((v) => absenceGap(v, requirement, req.locale) === undefined),
          ).toBe(true);
          expect(answer.budget_exhausted).toBe(false);
        }
        if (answer.answer_payload.value === true) expect(answer.result_state).toBe("found");
        if (answer.answer_payload.value === false) expect(answer.result_state).toBe("not_found");
        if (answer.result_state !== "found") expect(answer.reason_code).toBeTypeOf("string");
      }),
      { numRuns: 400 },
    );
  });
});
