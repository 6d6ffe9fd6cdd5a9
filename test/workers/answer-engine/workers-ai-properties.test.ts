import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildContext } from "../../../src/answer-engine/context";
import { isComplete } from "../../../src/answer-engine/inspection";
import type { AnswerRequest, EngineAnswer } from "../../../src/answer-engine/types";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import { type Cue, citedRefs, existsInIndex, video } from "./fixtures";
import { jsonMode, type SentPrompt, world } from "./recording-ai";

// Sentences that read every way: reports, negations, rules, requests, counts, unrelated.
const SENTENCES = [
  "The workers wore hard hats on the roof.",
  "Nobody wore a hard hat on the roof.",
  "Everyone must wear hard hats on the roof.",
  "Please wear your hard hat.",
  "Four pallets were loaded onto the lorry.",
  "Two pallets fell off the rack.",
  "Tom dropped a tray of glasses.",
  "Nobody dropped the glasses.",
  "Maria mopped the floor behind the counter.",
  "The delivery van arrived at nine.",
  "Never smoke near the fire door.",
  "A driver smoked near the fire door.",
  "The alarm sounded twice.",
];
const QUESTIONS = [
  "Did the workers wear hard hats on the roof?",
  "Are workers required to wear hard hats?",
  "How many pallets were loaded?",
  "Did Tom drop the glasses?",
  "Was the floor cleaned?",
  "No smoking near the fire door",
  "Was a crane used?",
  "When did the alarm sound?",
  'Which are mentioned: "pallets", "glasses", "crane"?',
];
const TYPES = ["verdict", "measurement", "enumeration", "timeline", "synthesis"] as const;
const STATES = ["found", "not_found", "uncertain", "not_checked"] as const;

const videoShape = fc.record({
  cues: fc.subarray(SENTENCES, { minLength: 1, maxLength: 6 }),
  captionsWhole: fc.boolean(),
});

/** What the fake model does with a prompt: each choice indexes what the prompt offers. */
const behaviour = fc.record({
  state: fc.constantFrom(...STATES),
  reason: fc.constantFrom(undefined, "conflicting_evidence", "insufficient_evidence"),
  cite: fc.array(fc.nat(), { maxLength: 3 }),
  invent: fc.boolean(),
  quotes: fc.array(
    fc.oneof(
      fc.nat().map((n) => ({ from: n })),
      fc.constantFrom(...SENTENCES).map((text) => ({ text })),
      fc.string({ maxLength: 20 }).map((text) => ({ text })),
    ),
    { maxLength: 3 },
  ),
  value: fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -2, max: 9 }), fc.string()),
  items: fc.array(fc.record({ state: fc.constantFrom(...STATES), cite: fc.nat() }), {
    maxLength: 3,
  }),
});

type Behaviour = typeof behaviour extends fc.Arbitrary<infer T> ? T : never;

function reply(b: Behaviour, prompt: SentPrompt) {
  const evidence = prompt.segments.flatMap((s) => s.evidence);
  const pick = (n: number) => evidence[n % Math.max(1, evidence.length)];
  const ids = b.cite.flatMap((n) => pick(n)?.evidence_id ?? []);
  return {
    result_state: b.state,
    ...(b.reason ? { reason_code: b.reason } : {}),
    summary: "A model's answer.",
    value: b.value,
    evidence_ids: b.invent ? [...ids, "evidence_invented000000000000000"] : ids,
    quotes: b.quotes.map((q) => ("from" in q ? (pick(q.from)?.text ?? "") : q.text)),
    items: b.items.map((item, i) => ({
      label: `item ${i}`,
      result_state: item.state,
      evidence_ids: [pick(item.cite)?.evidence_id ?? "evidence_none"],
    })),
  };
}

/** The fake's reply to one call: one answer, or one per question of a batched call. */
function respond(b: Behaviour, inputs: unknown) {
  const messages = (inputs as { messages: { role: string; content: string }[] }).messages;
  const prompt = JSON.parse(
    messages.find((m) => m.role === "user")?.content ?? "{}",
  ) as SentPrompt & {
    questions?: { question_id: string }[];
  };
  const one = reply(b, prompt);
  if (!prompt.questions) return one;
  return { answers: prompt.questions.map((q) => ({ question_id: q.question_id, ...one })) };
}

function requestOf(
  shapes: { cues: string[]; captionsWhole: boolean }[],
  type: (typeof TYPES)[number],
  description: string,
): AnswerRequest {
  const videos = shapes.map((shape, v) => {
    const cues: Cue[] = shape.cues.map((text, i) => [i * 4, i * 4 + 3, text]);
    const duration = shape.captionsWhole ? shape.cues.length * 4 : shape.cues.length * 40;
    return video({ id: `vid_${v}`, duration, cues });
  });
  return {
    run_id: "run_prop",
    instructions: "",
    spec: {
      answer_key: "q",
      answer_type: type,
      description,
      evidence: { accepted_types: ["transcript"] },
    },
    videos,
    locale: "en",
    budget: { media_seconds: 1_000_000, tokens: 1_000_000 },
  };
}

function assertBacked(answer: EngineAnswer, req: AnswerRequest): void {
  for (const ref of citedRefs(answer)) expect(existsInIndex(ref, req.videos)).toBe(true);
  const local = answerLocally(req);
  // A found rests on the service's own reading, whatever the model said.
  if (answer.result_state === "found") expect(local.result_state).toBe("found");
  if (answer.answer_payload.value === true) expect(answer.result_state).toBe("found");
  if (answer.result_state === "not_found" && local.result_state !== "not_found") {
    // An absence from the model's reading: every video whole, and no word of the question read.
    expect(answer.provenance.method).toBe("model-judged");
    const ctx = buildContext(req, ["en"]);
    expect(ctx.inspection.videos.every(isComplete)).toBe(true);
    expect(ctx.matches).toEqual([]);
  }
}

describe("WorkersAiAnswerEngine properties: whatever the model answers", () => {
  it("stores a found only where the service's reading finds it, an absence only where it is backed", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(videoShape, { minLength: 1, maxLength: 2 }),
        fc.constantFrom(...TYPES),
        fc.constantFrom(...QUESTIONS),
        behaviour,
        async (shapes, type, description, b) => {
          const req = requestOf(shapes, type, description);
          const { engine } = world((inputs) => jsonMode(respond(b, inputs)));
          const answer = await engine.answer(req);
          assertBacked(answer, req);
          const batch = await engine.answerMany([
            req,
            { ...req, spec: { ...req.spec, answer_key: "q2" } },
          ]);
          for (const one of batch.answers) assertBacked(one, req);
        },
      ),
      { numRuns: 150 },
    );
  });
});
