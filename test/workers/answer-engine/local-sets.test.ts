import { describe, expect, it } from "vitest";
import type { EngineAnswer } from "../../../src/answer-engine/types";
import { LocalAnswerEngine } from "../../../src/ports/answer-engine/local";
import { expectCitesIndex, request, silent, TALK_CUES, talk, video } from "./fixtures";

const engine = new LocalAnswerEngine();
const states = (a: EngineAnswer) => a.answer_payload.items.map((i) => [i.label, i.result_state]);
const attr = (a: EngineAnswer, index: number, key: string) =>
  a.answer_payload.items[index]?.attributes.find((x) => x.key === key)?.value;

const forklifts = video({
  id: "vid_yard",
  duration: 24,
  tags: ["forklift", "lang:eng"],
  cues: [
    [2, 4, "The forklift is parked."],
    [7, 10, "Every forklift needs a daily check."],
    [11, 13, "Ask Dana Okafor about the forklift rota."],
    [15, 17, "Forklift keys stay in the office."],
  ],
});

describe("LocalAnswerEngine: enumeration", () => {
  it("decides each quoted value like a verdict", async () => {
    const videos = [talk()];
    const a = await engine.answer(
      request(
        {
          answer_type: "enumeration",
          description: 'Which are mentioned: "forklift", "pallets", "ladder"?',
        },
        videos,
      ),
    );
    expect(a.result_state).toBe("found");
    expect(states(a)).toEqual([
      ["forklift", "found"],
      ["pallets", "found"],
      ["ladder", "not_found"],
    ]);
    expect(a.answer_payload).toMatchObject({ value: 2, unit: "values" });
    expect(a.event_count).toBe(2);
    expect(a.evidence_count).toBe(2);
    expectCitesIndex(a, videos);
  });

  it("uses the fields as the values when the spec has two or more", async () => {
    const a = await engine.answer(
      request(
        {
          answer_type: "enumeration",
          description: "Which protective gear is mentioned?",
          fields: [
            { key: "vests", label: "High visibility vests" },
            { key: "hard_hats", label: "Hard hats" },
          ],
        },
        [talk()],
      ),
    );
    expect(states(a)).toEqual([
      ["High visibility vests", "found"],
      // Unquoted words not found are no proof: hard hats may be named in other words.
      ["Hard hats", "uncertain"],
    ]);
  });

  it("derives values from the supporting evidence: tags and names", async () => {
    const a = await engine.answer(
      request(
        { answer_type: "enumeration", description: "Who is mentioned with the forklift rota?" },
        [forklifts],
      ),
    );
    expect(a.result_state).toBe("found");
    expect(a.answer_payload.items.map((i) => i.value)).toEqual(["forklift", "Dana Okafor"]);
    expectCitesIndex(a, [forklifts]);
  });

  it("is not_checked over a video with no transcript", async () => {
    const a = await engine.answer(
      request({ answer_type: "enumeration", description: 'Which: "forklift", "ladder"?' }, [
        silent(),
      ]),
    );
    expect(a.result_state).toBe("not_checked");
    expect(a.answer_payload.value).toBeUndefined();
  });
});

describe("LocalAnswerEngine: timeline", () => {
  it("lists each mention as a time-ordered event with its interval", async () => {
    const a = await engine.answer(
      request({ answer_type: "timeline", description: "Timeline of forklift mentions" }, [
        forklifts,
      ]),
    );
    expect(a.result_state).toBe("found");
    const spans = a.answer_payload.items.map((_, i) => [
      attr(a, i, "start_time"),
      attr(a, i, "end_time"),
    ]);
    expect(spans).toEqual([
      [2, 4],
      [7, 10],
      [11, 13],
      [15, 17],
    ]);
    expect(a.event_count).toBe(4);
    expect(a.answer_payload.value).toBe(4);
    expectCitesIndex(a, [forklifts]);
  });

  it("keeps negated mentions as uncertain events", async () => {
    const v = video({
      id: "vid_shop",
      duration: 16,
      cues: [
        [1, 4, "Wear gloves when handling chemicals."],
        [9, 12, "Do not wear gloves near the lathe."],
      ],
    });
    const a = await engine.answer(
      request({ answer_type: "timeline", description: "When does the talk say to wear gloves?" }, [
        v,
      ]),
    );
    expect(a.answer_payload.items.map((i) => i.result_state)).toEqual(["found", "uncertain"]);
    expect(a.event_count).toBe(1);
  });

  it("is not_found when nothing happens in an extracted transcript", async () => {
    const a = await engine.answer(
      request({ answer_type: "timeline", description: '"ladder inspections"' }, [talk()]),
    );
    expect(a.result_state).toBe("not_found");
    expect(a.event_count).toBe(0);
    expect(a.answer_payload.items).toEqual([]);
  });
});

describe("LocalAnswerEngine: retrieval", () => {
  it("ranks matching segments by score, strong ones found, borderline ones uncertain", async () => {
    const a = await engine.answer(
      request({ answer_type: "retrieval", description: "forklift needs daily check" }, [forklifts]),
    );
    expect(a.result_state).toBe("found");
    const rows = a.answer_payload.items.map((i) => [i.item_id, i.result_state, i.value]);
    expect(rows).toEqual([
      ["seg_vid_yard_0", "found", 0.85],
      ["seg_vid_yard_1", "found", 0.85],
    ]);
    expectCitesIndex(a, [forklifts]);
  });

  it("calls words spread over sentences of a segment borderline, never found", async () => {
    const a = await engine.answer(
      request({ answer_type: "retrieval", description: "forklift needs daily keys" }, [forklifts]),
    );
    expect(a.result_state, JSON.stringify(a)).toBe("uncertain");
    expect(a.reason_code).toBe("below_threshold");
    const rows = a.answer_payload.items.map((i) => [i.item_id, i.result_state, i.value]);
    expect(rows).toEqual([
      ["seg_vid_yard_1", "uncertain", 0.85],
      ["seg_vid_yard_0", "uncertain", 0.4781],
      // "Forklift keys stay in the office.": half the words, still borderline.
      ["seg_vid_yard_2", "uncertain", 0.2125],
    ]);
    expectCitesIndex(a, [forklifts]);
  });
});

describe("LocalAnswerEngine: synthesis", () => {
  it("quotes the matching sentences in time order, each cited, never generated", async () => {
    const videos = [talk()];
    const a = await engine.answer(
      request(
        { answer_type: "synthesis", description: "Summarise what is said about safety" },
        videos,
      ),
    );
    expect(a.result_state).toBe("found");
    expect(a.answer_payload.value).toBe("Welcome to the warehouse safety briefing.");
    const cues = TALK_CUES.map((c) => c[2]);
    for (const item of a.answer_payload.items) {
      expect(cues.some((cue) => cue.includes(String(item.value)))).toBe(true);
      expect(item.evidence).toHaveLength(1);
    }
    expectCitesIndex(a, videos);
  });

  it("is uncertain when no sentence holds every word it looks for", async () => {
    const a = await engine.answer(
      request({ answer_type: "synthesis", description: "forklift safety" }, [talk()]),
    );
    expect(a.result_state).toBe("uncertain");
    expect(a.answer_payload.items.map((i) => i.result_state)).toEqual(["uncertain", "uncertain"]);
  });

  it("spreads its quotes over the video when the spec names nothing to look for", async () => {
    const a = await engine.answer(
      request({ answer_type: "synthesis", description: "Summarise the video." }, [talk()]),
    );
    expect(a.result_state).toBe("found");
    expect(a.answer_payload.items).toHaveLength(5);
    expect(a.answer_payload.items[0]?.label).toBe("Welcome to the warehouse safety briefing.");
  });

  it("is not_checked when there is nothing extracted to quote", async () => {
    const a = await engine.answer(
      request({ answer_type: "synthesis", description: "forklift safety" }, [silent()]),
    );
    expect(a.result_state).toBe("not_checked");
    expect(a.answer_payload.value).toBeUndefined();
  });
});
