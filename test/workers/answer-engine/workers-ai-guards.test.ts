import { describe, expect, it } from "vitest";
import { evidenceId } from "../../../src/answer-engine/evidence-ids";
import type { EngineAnswer } from "../../../src/answer-engine/types";
import { type Cue, request, video } from "./fixtures";
import { jsonMode, modelAnswer, world } from "./recording-ai";

/** A shift log: a negation, a rule, reports, a paraphrase target, a count, a request, a breach. */
const LOG: Cue[] = [
  [0, 3, "Nobody wore a hard hat on the roof."],
  [4, 7, "Everyone must wear ear defenders in the workshop."],
  [8, 11, "Tom dropped a tray of glasses near the bar."],
  [12, 15, "Maria mopped the floor behind the counter."],
  [16, 19, "The delivery van arrived at nine."],
  [20, 23, "Four pallets were loaded onto the lorry."],
  [24, 27, "Please lock the back door."],
  [28, 31, "A driver smoked near the fire door."],
];

function shiftLog() {
  return video({ id: "vid_log", title: "Shift log", duration: 32, bounds: [16], cues: LOG });
}

/** The evidence id of the cue of LOG starting at `start`, in the segment it starts in. */
function cue(start: number): string {
  const found = LOG.find((c) => c[0] === start);
  if (!found) throw new Error(`no cue at ${start}`);
  return evidenceId(`seg_vid_log_${start < 16 ? 0 : 1}`, "transcript", found[0], found[1]);
}

function text(start: number): string {
  return LOG.find((c) => c[0] === start)?.[2] ?? "";
}

/** The answer to `description` when the model answers `fields` (a found unless told). */
async function asked(
  description: string,
  fields: Record<string, unknown>,
  options: { type?: "verdict" | "measurement" | "enumeration"; mode?: "observation" } = {},
): Promise<EngineAnswer> {
  const { engine } = world(() => jsonMode(modelAnswer({ quotes: [], ...fields })));
  const r = request({ answer_type: options.type ?? "verdict", description }, [shiftLog()]);
  return engine.answer(options.mode ? { ...r, mode: options.mode } : r);
}

function cited(answer: EngineAnswer): string[] {
  return answer.answer_payload.evidence_summary.representative.map((r) => r.evidence_id);
}

describe("WorkersAiAnswerEngine: a model that errs never makes a pass", () => {
  it("does not take a negated sentence as support", async () => {
    const a = await asked("Did the workers wear hard hats on the roof?", {
      evidence_ids: [cue(0)],
      quotes: [text(0)],
      value: true,
    });
    expect(a).toMatchObject({ result_state: "uncertain", reason_code: "conflicting_evidence" });
    expect(a.answer_payload.value).toBeUndefined();
  });

  it("does not take a rule, request or instruction as something that happened", async () => {
    const rule = await asked("Did the staff wear ear defenders in the workshop?", {
      evidence_ids: [cue(4)],
      quotes: ["must wear ear defenders in the workshop"],
    });
    expect(rule).toMatchObject({
      result_state: "uncertain",
      reason_code: "instruction_not_observation",
    });
    const request = await asked("Was the back door locked?", {
      evidence_ids: [cue(24)],
      quotes: [text(24)],
    });
    expect(request.result_state).toBe("uncertain");
    expect(request.answer_payload.summary).toContain("states a rule, request or instruction");
  });

  it("does not take a real span that says something else", async () => {
    const a = await asked("Was the fire alarm tested?", {
      evidence_ids: [cue(16)],
      quotes: [text(16)],
    });
    // The service's own reason stands; the summary says what the model claimed and why not.
    expect(a).toMatchObject({ result_state: "uncertain", reason_code: "no_literal_match" });
    expect(a.answer_payload.summary).toContain("The delivery van arrived at nine.");
    expect(a.answer_payload.summary).toContain("does not share at least half");
  });

  it("does not take a quote that is not in what it cites (invented, or cited at another time)", async () => {
    const invented = await asked("Was the fire alarm tested?", {
      evidence_ids: [cue(16)],
      quotes: ["The fire alarm was tested at noon."],
    });
    expect(invented).toMatchObject({ result_state: "uncertain", reason_code: "no_literal_match" });
    expect(invented.answer_payload.summary).toContain("no quote of its support stands");
    // The true sentence, cited at the neighbouring span: the service's own reading cites it.
    const shifted = await asked("Did Tom drop a tray of glasses?", {
      evidence_ids: [cue(12)],
      quotes: [text(8)],
    });
    expect(shifted.result_state).toBe("found");
    expect(cited(shifted)).toEqual([cue(8)]);
  });

  it("never stores a number the evidence does not state", async () => {
    const wrong = await asked(
      "How many pallets were loaded?",
      { evidence_ids: [cue(20)], quotes: [text(20)], value: 5, unit: "pallets" },
      { type: "measurement" },
    );
    expect(wrong).toMatchObject({ result_state: "uncertain", reason_code: "unbacked_value" });
    expect(wrong.answer_payload.value).toBeUndefined();
    const right = await asked(
      "How many pallets were loaded?",
      { evidence_ids: [cue(20)], quotes: [text(20)], value: 4, unit: "pallets" },
      { type: "measurement" },
    );
    expect(right).toMatchObject({ result_state: "found", answer_payload: { value: 4 } });
  });

  it("never stores found with the value false as a pass", async () => {
    // Where the service's own reading finds support, it stands, with the value true.
    const stated = await asked("Did Maria mop the floor behind the counter?", {
      evidence_ids: [cue(12)],
      quotes: [text(12)],
      value: false,
    });
    expect(stated).toMatchObject({ result_state: "found", answer_payload: { value: true } });
    // Where it does not, the model's yes-and-no is no pass.
    const paraphrase = await asked("Was the floor cleaned?", {
      evidence_ids: [cue(12)],
      quotes: [text(12)],
      value: false,
    });
    expect(paraphrase).toMatchObject({ result_state: "uncertain", reason_code: "unbacked_value" });
  });

  it("never meets a prohibition with the sentence that breaks it", async () => {
    const a = await asked(
      "No smoking near the fire door",
      { evidence_ids: [cue(28)], quotes: [text(28)] },
      { mode: "observation" },
    );
    expect(a.result_state).toBe("uncertain");
    expect(a.reason_code).toBe("conflicting_evidence");
  });

  it("lists every named value it reads, whatever items the model skips", async () => {
    const a = await asked(
      'Which are mentioned: "pallets", "glasses", "crane"?',
      {
        evidence_ids: [cue(20)],
        quotes: [text(20)],
        items: [{ label: "pallets", result_state: "found", evidence_ids: [cue(20)] }],
      },
      { type: "enumeration" },
    );
    expect(a.result_state).toBe("found");
    expect(a.answer_payload.items.map((i) => [i.label, i.result_state])).toEqual([
      ["pallets", "found"],
      ["glasses", "found"],
      ["crane", "not_found"],
    ]);
  });

  it("keeps what the evidence says when the model claims a negative without having looked", async () => {
    const denied = await asked("Did Tom drop a tray of glasses?", {
      result_state: "not_found",
      summary: "Nothing about glasses.",
    });
    expect(denied).toMatchObject({ result_state: "found", answer_payload: { value: true } });
    // Sent one segment of two: its absence is no absence.
    const { engine } = world(
      () => jsonMode(modelAnswer({ result_state: "not_found", summary: "No crane." })),
      { maxSegments: 1 },
    );
    const unseen = await engine.answer(
      request({ answer_type: "verdict", description: "Was a crane used?" }, [shiftLog()]),
    );
    expect(unseen).toMatchObject({ result_state: "not_checked", reason_code: "context_limit" });
  });

  it("takes an absence from the model only where no word of the question was read", async () => {
    const absent = await asked("Was a crane used?", {
      result_state: "not_found",
      summary: "No crane.",
    });
    expect(absent).toMatchObject({ result_state: "not_found", answer_payload: { value: false } });
    expect(absent.provenance.method).toBe("model-judged");
    // "roof" is read: a word match cannot rule out that the roof was inspected in other words.
    const roof = await asked("Was the roof inspected?", {
      result_state: "not_found",
      summary: "No inspection.",
    });
    expect(roof.result_state).toBe("uncertain");
    expect(roof.answer_payload.value).toBeUndefined();
  });

  it("shows a paraphrase the model reads as uncertain, with the sentence it cites", async () => {
    const a = await asked("Was the floor cleaned?", {
      evidence_ids: [cue(12)],
      quotes: [text(12)],
    });
    expect(a).toMatchObject({ result_state: "uncertain", reason_code: "paraphrase_unverified" });
    expect(cited(a)).toContain(cue(12));
  });

  it("takes the model's doubt: a conflict it reads makes a found uncertain", async () => {
    const a = await asked("Did Tom drop a tray of glasses?", {
      result_state: "uncertain",
      reason_code: "conflicting_evidence",
      summary: "The log contradicts itself.",
    });
    expect(a).toMatchObject({ result_state: "uncertain", reason_code: "conflicting_evidence" });
    expect(a.answer_payload.value).toBeUndefined();
  });
});
