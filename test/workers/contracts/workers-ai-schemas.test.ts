import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { probeMedia } from "../../../src/media/probe";
import { ANSWER_MODEL } from "../../../src/ports/answer-engine/workers-ai-prompt";
import { BGE_M3, WorkersAiEmbedder } from "../../../src/ports/embedder/workers-ai";
import { R2FrameStore } from "../../../src/ports/media-understanding/frame-store";
import {
  VISION_MODEL,
  visionInput,
  WHISPER_MODEL,
} from "../../../src/ports/media-understanding/model-outputs";
import { understandWhole } from "../../../src/ports/media-understanding/port";
import { WorkersAiMediaUnderstanding } from "../../../src/ports/media-understanding/workers-ai";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";
import { request, talk } from "../answer-engine/fixtures";
import { jsonMode, modelAnswer, VEST_ID, vestsVerdict, world } from "../answer-engine/recording-ai";
import { understandInput } from "../media-understanding/probes";
import {
  RecordingAi,
  RecordingMedia,
  realisticAnswer,
} from "../media-understanding/recording-fakes";
import { RecordingEmbeddingAi } from "../search-ports/recording-fakes";
import {
  answerIn,
  answerOut,
  embeddingInput,
  embeddingOutput,
  visionIn,
  visionOut,
  whisperInput,
  whisperOutput,
} from "./model-validators";
import { MODEL_SCHEMAS } from "./schemas";

describe("Workers AI calls against the published model schemas", () => {
  it("has a committed schema for every model the code calls", () => {
    for (const model of [BGE_M3, WHISPER_MODEL, VISION_MODEL, ANSWER_MODEL]) {
      expect(MODEL_SCHEMAS[model], model).toBeDefined();
    }
  });

  it("embeds in requests BGE-M3 accepts, and the fake answers as BGE-M3 does", async () => {
    const ai = new RecordingEmbeddingAi();
    const texts = Array.from({ length: 150 }, (_, i) => (i === 7 ? "  " : `text ${i}`));
    texts.push("x".repeat(20_000));
    await new WorkersAiEmbedder(ai).embed("ws_1", texts, "document");
    expect(ai.calls.length).toBeGreaterThan(1);
    for (const call of ai.calls)
      expect(embeddingInput(call.inputs), JSON.stringify(call.inputs).slice(0, 200)).toEqual([]);
    const answer = await new RecordingEmbeddingAi().run(BGE_M3, { text: ["a", "b"] });
    expect(embeddingOutput(answer)).toEqual([]);
  });

  it("transcribes and describes frames in requests the models accept; the fakes answer in shape", async () => {
    const ai = new RecordingAi(realisticAnswer);
    const engine = new WorkersAiMediaUnderstanding({
      ai,
      media: new RecordingMedia(),
      frames: new R2FrameStore(env.MEDIA_BUCKET),
    });
    const source = bytesSource(fixtureBytes("talk.mp4"));
    const probed = await probeMedia(source, { filename: "talk.mp4", contentType: "video/mp4" });
    await understandWhole(engine, understandInput(probed, { source }));
    const heard = ai.callsTo(WHISPER_MODEL);
    const seen = ai.callsTo(VISION_MODEL);
    expect(heard.length).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThan(0);
    for (const call of heard) {
      expect(whisperInput(call.inputs)).toEqual([]);
      expect(whisperOutput(await realisticAnswer(call.model, call.inputs))).toEqual([]);
    }
    for (const call of seen) {
      expect(visionIn(call.inputs)).toEqual([]);
      expect(visionOut(await realisticAnswer(call.model, call.inputs))).toEqual([]);
    }
  });

  it("asks the answer model in a request it accepts; the fake's JSON-mode answer is in shape", async () => {
    const answer = jsonMode(modelAnswer({ evidence_ids: [VEST_ID], value: "yes" }));
    const { ai, engine } = world(() => answer);
    await engine.answer(request(vestsVerdict(), [talk()]));
    expect(ai.calls).toHaveLength(1);
    for (const call of ai.calls) expect(answerIn(call.inputs)).toEqual([]);
    expect(answerOut(answer)).toEqual([]);
  });

  it("refuses shapes the schemas do not publish, so a drifting fake or request fails here", () => {
    expect(embeddingOutput({ shape: [1, 3], vectors: [[1, 2, 3]] })).not.toEqual([]);
    expect(embeddingInput({ text: ["a"], truncate: true })).not.toEqual([]);
    expect(embeddingInput({ text: Array.from({ length: 101 }, () => "t") })).not.toEqual([]);
    expect(whisperInput({ audio: "AAAA", vad_filter: "true" })).not.toEqual([]);
    expect(whisperOutput({ text: "hi", segments: { start: 0, end: 1, text: "hi" } })).not.toEqual(
      [],
    );
    const remote = visionInput(["https://example.com/frame.jpg"]);
    expect(visionIn(remote)).not.toEqual([]);
    expect(visionOut({ result: "{}" })).not.toEqual([]);
    expect(
      answerIn({ messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }),
    ).not.toEqual([]);
    expect(answerOut({ response: 42 })).not.toEqual([]);
  });
});
