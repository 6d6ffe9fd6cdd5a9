import { beforeAll, describe, expect, it } from "vitest";
import { sentencesOf } from "../../../simulators/workers-ai/statements";
import type { AnswerRequest, EngineVideo } from "../../../src/answer-engine/types";
import type { AnswerSpec } from "../../../src/domain/answers";
import { answerLocally } from "../../../src/ports/answer-engine/local";
import { request } from "../answer-engine/fixtures";
import {
  answersOf,
  ask,
  indexedFixtures,
  onlyAnswer,
  promptOver,
  promptsFor,
  sent,
  spansOf,
} from "./answer-model-world";

type Spec = Partial<AnswerSpec> & Pick<AnswerSpec, "answer_type">;

let talk: EngineVideo;
let cooking: EngineVideo;
let repair: EngineVideo;

beforeAll(async () => {
  [talk, cooking, repair] = (await indexedFixtures([
    "talk.mp4",
    "captions.webm",
    "subtitles.mkv",
  ])) as [EngineVideo, EngineVideo, EngineVideo];
}, 120_000);

/** What a model that read the segments would call the local engine's state. */
function modelState(local: ReturnType<typeof answerLocally>): string {
  return local.result_state;
}

describe("the honest simulated answer model", () => {
  it("answers prompts over indexed fixtures as the local engine reads them, citing and quoting what the prompt holds", async () => {
    const cases: [() => EngineVideo, Spec][] = [
      [
        () => talk,
        {
          answer_type: "verdict",
          description: "Are forklift operators required to wear high visibility vests?",
        },
      ],
      [
        () => talk,
        {
          answer_type: "verdict",
          description: "Do forklift operators wear high visibility vests?",
        },
      ],
      [
        () => talk,
        { answer_type: "verdict", description: "Does the loading dock close at six pm?" },
      ],
      [() => talk, { answer_type: "verdict", description: "Is a crane used?" }],
      [() => talk, { answer_type: "verdict", description: 'Is "crane" mentioned?' }],
      [
        () => talk,
        { answer_type: "measurement", description: "How many times is a spill mentioned?" },
      ],
      [
        () => talk,
        { answer_type: "timeline", description: "When are spills reported to the supervisor?" },
      ],
      [() => talk, { answer_type: "retrieval", description: "fire exits" }],
      [
        () => cooking,
        { answer_type: "verdict", description: "Does the video say to preheat the oven?" },
      ],
      [
        () => cooking,
        { answer_type: "synthesis", description: "Summarise what is said about saffron." },
      ],
      [
        () => repair,
        {
          answer_type: "enumeration",
          description: 'Which of "puncture", "spanner" and "glue" are mentioned?',
        },
      ],
    ];
    const seen = new Set<string>();
    for (const [videoOf, spec] of cases) {
      const asked: AnswerRequest = request(spec, [videoOf()]);
      const local = answerLocally(asked);
      const [input] = await promptsFor([asked]);
      if (!input) throw new Error("no call");
      const answer = onlyAnswer(ask(input));
      const where = `${spec.description}: ${JSON.stringify(answer)}`;
      expect(answer.result_state, where).toBe(modelState(local));
      seen.add(answer.result_state);
      const spans = spansOf(input);
      for (const id of [...answer.evidence_ids, ...answer.items.flatMap((i) => i.evidence_ids)])
        expect(spans.has(id), where).toBe(true);
      if (answer.result_state !== "found") {
        expect(answer.quotes, where).toEqual([]);
        continue;
      }
      // Every evidence id the local engine shows as representative is cited too.
      for (const ref of local.answer_payload.evidence_summary.representative)
        expect(answer.evidence_ids, where).toContain(ref.evidence_id);
      // Each quote is one whole sentence of a span it cites, never a multi-sentence cue.
      expect(answer.quotes.length, where).toBeGreaterThan(0);
      const cited = answer.evidence_ids.map((id) => spans.get(id)?.text ?? "");
      for (const quote of answer.quotes)
        expect(
          cited.some((text) => sentencesOf(text).includes(quote)),
          where,
        ).toBe(true);
    }
    expect([...seen].sort()).toEqual(["found", "not_found", "uncertain"]);
  });

  it("quotes a sentence that runs across two cues piece by piece, each piece in its own span", async () => {
    const input = await promptOver(
      [
        [1, 3, "Forklift operators must"],
        [3.5, 6, "wear vests. Then we left."],
      ],
      { answer_type: "verdict", description: "Must forklift operators wear vests?" },
    );
    const answer = onlyAnswer(ask(input));
    expect(answer).toMatchObject({ result_state: "found", value: true });
    expect(answer.quotes).toEqual(["Forklift operators must", "wear vests."]);
  });

  it("reads German as the service does: its reports, and its negations", async () => {
    const cues: [number, number, string][] = [
      [1, 4, "Der Fahrer hat drei Paletten gestapelt."],
      [5, 8, "Niemand trägt heute eine Schutzbrille."],
    ];
    const options = { language: "ger", locale: "de" };
    const stacked = await promptOver(
      cues,
      { answer_type: "verdict", description: "Hat der Fahrer Paletten gestapelt?" },
      options,
    );
    const [first] = sent(stacked).segments.flatMap((s) => s.evidence);
    expect(onlyAnswer(ask(stacked))).toMatchObject({
      result_state: "found",
      evidence_ids: [first?.evidence_id],
      quotes: ["Der Fahrer hat drei Paletten gestapelt."],
    });
    const glasses = await promptOver(
      cues,
      { answer_type: "verdict", description: "Trägt jemand eine Schutzbrille?" },
      options,
    );
    expect(onlyAnswer(ask(glasses))).toMatchObject({
      result_state: "uncertain",
      reason_code: "conflicting_evidence",
    });
  });

  it("calls a thing absent only when the segments sent span the videos", async () => {
    const crane = request({ answer_type: "verdict", description: 'Is "crane" said?' }, [talk]);
    const [all] = await promptsFor([crane]);
    const [one] = await promptsFor([crane], { maxSegments: 1 });
    if (!all || !one) throw new Error("no call");
    expect(sent(one).segments).toHaveLength(1);
    expect(onlyAnswer(ask(all))).toMatchObject({
      result_state: "not_found",
      value: false,
      evidence_ids: [],
    });
    expect(onlyAnswer(ask(one))).toMatchObject({ result_state: "not_checked", evidence_ids: [] });
  });

  it("answers each question of a batched prompt under its id, as it answers it alone", async () => {
    const specs: Spec[] = [
      {
        answer_key: "dock",
        answer_type: "verdict",
        description: "Does the loading dock close at six pm?",
      },
      {
        answer_key: "vests",
        answer_type: "verdict",
        description: "Do forklift operators wear high visibility vests?",
      },
      {
        answer_key: "spills",
        answer_type: "measurement",
        description: "How many times is a spill mentioned?",
      },
    ];
    const requests = specs.map((spec) => request(spec, [talk]));
    const [batch, ...more] = await promptsFor(requests, { batched: true });
    if (!batch) throw new Error("no call");
    expect(more).toEqual([]);
    const ids = (sent(batch).questions ?? []).map((q) => q.question_id);
    expect(ids).toEqual(["q1", "q2", "q3"]);
    const reply = ask(batch);
    const answers = answersOf(reply);
    const keyed = (reply.output.response as { answers: { question_id: string }[] }).answers;
    expect(keyed.map((a) => a.question_id)).toEqual(ids);
    for (const [i, one] of requests.entries()) {
      const [alone] = await promptsFor([one]);
      if (!alone) throw new Error("no call");
      const single = onlyAnswer(ask(alone));
      expect(answers[i], specs[i]?.description).toMatchObject({
        result_state: single.result_state,
        evidence_ids: single.evidence_ids,
        quotes: single.quotes,
      });
    }
  });

  it("reports the tokens of its prompt and its answer, counted from their text", async () => {
    const short = await promptOver([[1, 3, "The dock closes at six."]], {
      answer_type: "verdict",
      description: "Does the dock close?",
    });
    const long = await promptOver(
      Array.from({ length: 12 }, (_, i): [number, number, string] => [
        4 * i + 1,
        4 * i + 3,
        `Pallet ${i + 1} was moved to the dock before the shift ended.`,
      ]),
      { answer_type: "verdict", description: "Does the dock close?" },
    );
    const bytes = (text: string) => new TextEncoder().encode(text).byteLength;
    for (const input of [short, long]) {
      const { output } = ask(input);
      const text = input.messages.reduce((n, m) => n + bytes(String(m.content)), 0);
      expect(output.usage.prompt_tokens).toBeGreaterThanOrEqual(Math.ceil(text / 4));
      expect(output.usage.prompt_tokens).toBeLessThan(Math.ceil(text / 4) + 20);
      expect(output.usage.completion_tokens).toBe(
        Math.ceil(bytes(JSON.stringify(output.response)) / 4),
      );
      expect(output.usage.total_tokens).toBe(
        output.usage.prompt_tokens + output.usage.completion_tokens,
      );
    }
    expect(ask(long).output.usage.prompt_tokens).toBeGreaterThan(
      ask(short).output.usage.prompt_tokens + 100,
    );
  });
});
