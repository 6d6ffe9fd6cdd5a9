import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { frameJpeg } from "../../../simulators/media/jpeg";
import { SimulatedAi } from "../../../simulators/workers-ai";
import { RateWindow } from "../../../simulators/workers-ai/rate-window";
import { openCutter } from "../../../src/media/cut";
import { ANSWER_JSON_SCHEMA } from "../../../src/ports/answer-engine/workers-ai-prompt";
import { fixtureBytes, type MediaFixture } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";
import {
  answerIn,
  answerOut,
  embeddingOutput,
  visionOut,
  whisperOutput,
} from "../contracts/model-validators";

const WHISPER = "@cf/openai/whisper-large-v3-turbo";
const VISION = "@cf/meta/llama-4-scout-17b-16e-instruct";
const ANSWER = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";
const BGE = "@cf/baai/bge-m3";

const calm = { delay: async () => undefined, fails: () => false };

function simulator(vision: "refuse" | "describe" = "refuse", faults = calm) {
  return new SimulatedAi({ bucket: env.MEDIA_BUCKET, faults, vision });
}

/** A source stored as the service stores it, and a cut of its audio as the engine makes it. */
async function audioCut(fixture: MediaFixture, start: number, end: number) {
  const key = `videos/vid_sim_${fixture.replace(/\W/g, "")}/source`;
  const bytes = fixtureBytes(fixture);
  await env.MEDIA_BUCKET.put(key, bytes);
  const cutter = openCutter(bytesSource(bytes), key);
  try {
    const cut = await cutter.audio(start, end);
    if (!cut) throw new Error("no audio");
    return btoa(String.fromCharCode(...cut.bytes));
  } finally {
    cutter.dispose();
  }
}

describe("the Workers AI simulator", () => {
  it("hears a source's captions for the span of the audio it is sent, in Whisper's shape", async () => {
    const audio = await audioCut("talk.mp4", 0, 12);
    const out = (await simulator().run(WHISPER, { audio })) as {
      text: string;
      segments: { start: number; end: number; text: string }[];
      transcription_info: { language: string };
    };
    expect(whisperOutput(out)).toEqual([]);
    expect(out.text).toMatch(/loading dock/i);
    expect(out.transcription_info.language).toBe("en");
    for (const s of out.segments) {
      expect(s.start).toBeGreaterThanOrEqual(0);
      expect(s.end).toBeLessThanOrEqual(12.1);
    }
  });

  it("refuses audio of a source without captions: it claims to hear nothing it cannot", async () => {
    const audio = await audioCut("audio-only.mp4", 0, 3);
    await expect(simulator().run(WHISPER, { audio })).rejects.toThrow(/^3003: /);
  });

  it("refuses frames by default, and describes one without naming anything when asked to", async () => {
    const jpeg = frameJpeg(JSON.stringify({ cut_of: "videos/x/source", time: 12 }));
    const uri = `data:image/jpeg;base64,${btoa(String.fromCharCode(...jpeg))}`;
    const request = {
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: uri } }] }],
    };
    await expect(simulator().run(VISION, request)).rejects.toThrow(/^5004: /);
    const described = await simulator("describe").run(VISION, request);
    expect(visionOut(described)).toEqual([]);
    expect(JSON.stringify(described)).toContain("12.0 s");
  });

  it("answers from the evidence in its prompt, and only cites what holds every word", async () => {
    const ask = (description: string, label?: string) => ({
      messages: [
        { role: "system", content: "answer" },
        {
          role: "user",
          content: JSON.stringify({
            answer_spec: {
              answer_key: "k",
              answer_type: "verdict",
              description,
              ...(label ? { fields: [{ key: "description", label }] } : {}),
            },
            segments: [
              {
                evidence: [
                  {
                    evidence_id: "evidence_1",
                    kind: "transcript",
                    text: "The loading dock closes at six.",
                  },
                ],
              },
              {
                evidence: [
                  {
                    evidence_id: "evidence_2",
                    kind: "transcript",
                    text: "Forklifts are not allowed.",
                  },
                ],
              },
            ],
          }),
        },
      ],
      response_format: { type: "json_schema" },
    });
    const found = (await simulator().run(ANSWER, ask("Does the loading dock close?"))) as {
      response: { result_state: string; evidence_ids: string[]; value: unknown };
    };
    expect(answerIn(ask("x"))).toEqual([]);
    expect(answerOut(found)).toEqual([]);
    expect(found.response).toMatchObject({
      result_state: "found",
      evidence_ids: ["evidence_1"],
      value: true,
      quotes: ["The loading dock closes at six."],
    });
    // Every field the service's JSON schema requires is there: the engine keeps only a found
    // whose quote stands in the evidence it cites.
    for (const field of ANSWER_JSON_SCHEMA.required) expect(found.response).toHaveProperty(field);
    const negated = (await simulator().run(ANSWER, ask("Are forklifts allowed?"))) as {
      response: { result_state: string };
    };
    expect(negated.response.result_state).toBe("uncertain");
    // Words not found are no absence to a model that reads only words.
    const unread = (await simulator().run(ANSWER, ask("Is a crane used?"))) as {
      response: { result_state: string; evidence_ids: string[] };
    };
    expect(unread.response).toMatchObject({ result_state: "uncertain", evidence_ids: [] });
    const absent = (await simulator().run(ANSWER, ask('Is "crane" mentioned?'))) as {
      response: { result_state: string; evidence_ids: string[] };
    };
    expect(absent.response).toMatchObject({ result_state: "not_found", evidence_ids: [] });
    // A rule's title and description are each a way to state it: either, whole, is found.
    const rule = (await simulator().run(
      ANSWER,
      ask("Loading dock closing time", "The loading dock closes at six\nOwner: Safety"),
    )) as { response: { result_state: string } };
    expect(rule.response.result_state).toBe("found");
  });

  it("embeds in BGE-M3's shape: 1,024 unit-length dimensions, near for shared words", async () => {
    const out = (await simulator().run(BGE, {
      text: ["forklift at the dock", "the dock forklift", "lunch menu"],
    })) as {
      data: number[][];
    };
    expect(embeddingOutput(out)).toEqual([]);
    const [a = [], b = [], c = []] = out.data;
    const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * (y[i] ?? 0), 0);
    expect(a).toHaveLength(1024);
    expect(dot(a, a)).toBeCloseTo(1, 5);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c));
  });

  it("keeps the per-task rate limit: past it in one minute, calls are refused with a 429", () => {
    const rates = new RateWindow({
      "text-generation": 3,
      "speech-recognition": 1,
      "text-embeddings": 1,
    });
    const at = 5_000_000_000;
    expect([1, 2, 3, 4].map((i) => rates.admit("text-generation", at + i))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(rates.admit("speech-recognition", at)).toBe(true);
    expect(rates.admit("text-generation", at + 60_002)).toBe(true);
  });

  it("answers an injected fault as the platform's capacity error, and an unknown model as 5007", async () => {
    const faulty = simulator("refuse", { delay: async () => undefined, fails: () => true });
    await expect(faulty.run(BGE, { text: ["a"] })).rejects.toMatchObject({
      code: 3040,
      status: 429,
    });
    await expect(simulator().run("@cf/unknown/model", {})).rejects.toMatchObject({ code: 5007 });
  });
});
