import { describe, expect, expectTypeOf, it } from "vitest";
import {
  BGE_M3,
  type EmbeddingAi,
  EmbeddingError,
  WorkersAiEmbedder,
} from "../../../src/ports/embedder/workers-ai";
import { fakeEmbedding, RecordingEmbeddingAi } from "./recording-fakes";

const texts = (n: number, prefix = "segment") =>
  Array.from({ length: n }, (_, i) => `${prefix} ${i}`);

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
}

describe("WorkersAiEmbedder", () => {
  it("accepts the real Ai binding type", () => {
    expectTypeOf<Ai>().toExtend<EmbeddingAi>();
  });

  it("calls BGE-M3 in batches of at most 100, in order, with truncation on", async () => {
    const ai = new RecordingEmbeddingAi();
    const input = texts(250);
    const vectors = await new WorkersAiEmbedder(ai).embed("ws_a", input, "document");

    expect(ai.calls.map((call) => call.model)).toEqual([BGE_M3, BGE_M3, BGE_M3]);
    const sent = ai.calls.map((call) => call.inputs.text as string[]);
    expect(sent.map((batch) => batch.length)).toEqual([100, 100, 50]);
    expect(sent.flat()).toEqual(input);
    expect(ai.calls.every((call) => call.inputs.truncate_inputs === true)).toBe(true);
    expect(ai.maxInFlight).toBeLessThanOrEqual(3);

    expect(vectors).toHaveLength(250);
    input.forEach((text, i) => {
      const vector = vectors[i] ?? new Float32Array();
      expect(vector).toHaveLength(1024);
      expect(norm(vector)).toBeCloseTo(1, 5);
      // Same direction as what the model answered for this very text: order is preserved.
      const raw = fakeEmbedding(text);
      const rawNorm = Math.sqrt(raw.reduce((s, v) => s + v * v, 0));
      expect(vector[0]).toBeCloseTo((raw[0] ?? 0) / rawNorm, 5);
      expect(vector[1023]).toBeCloseTo((raw[1023] ?? 0) / rawNorm, 5);
    });
  });

  it("also splits batches by characters and cuts texts to the model's context", async () => {
    const ai = new RecordingEmbeddingAi();
    const long = "x".repeat(20_000);
    const emoji = `${"y".repeat(7_999)}😀tail`;
    await new WorkersAiEmbedder(ai).embed("ws_a", [...Array(30).fill(long), emoji], "document");

    const sent = ai.calls.flatMap((call) => call.inputs.text as string[]);
    expect(sent).toHaveLength(31);
    expect(sent.every((text) => text.length <= 8_000)).toBe(true);
    // The surrogate pair is dropped whole rather than split.
    expect(sent[30]).toBe("y".repeat(7_999));
    for (const call of ai.calls) {
      const chars = (call.inputs.text as string[]).reduce((sum, text) => sum + text.length, 0);
      expect(chars).toBeLessThanOrEqual(200_000);
    }
  });

  it("embeds blank texts to zero vectors without a call, and learning is a no-op", async () => {
    const ai = new RecordingEmbeddingAi();
    const embedder = new WorkersAiEmbedder(ai);
    await embedder.learn();
    await embedder.forget();
    const [blank, word] = await embedder.embed("ws_a", ["  ", "word"], "query");
    expect(ai.calls.map((call) => call.inputs.text)).toEqual([["word"]]);
    expect(norm(blank ?? new Float32Array(1))).toBe(0);
    expect(norm(word ?? new Float32Array())).toBeCloseTo(1, 5);
    expect(await embedder.embed("ws_a", [], "query")).toEqual([]);
    expect(ai.calls).toHaveLength(1);
  });

  it("surfaces binding errors and stops sending further batches", async () => {
    const ai = new RecordingEmbeddingAi();
    ai.failCall = 0;
    const embedder = new WorkersAiEmbedder(ai);
    const failure = embedder.embed("ws_a", texts(1_000), "document");
    await expect(failure).rejects.toThrow(EmbeddingError);
    await expect(failure).rejects.toThrow(/Capacity temporarily exceeded/);
    expect(ai.calls.length).toBeLessThan(10);
  });

  it.each([
    ["too few vectors", (t: string[]) => ({ shape: [1, 1024], data: [fakeEmbedding(t[0] ?? "")] })],
    ["no data", () => ({ request_id: "queued" })],
    ["wrong width", (t: string[]) => ({ data: t.map(() => [1, 2, 3]) })],
    ["a NaN", (t: string[]) => ({ data: t.map(() => Array(1024).fill(Number.NaN)) })],
    ["a zero vector", (t: string[]) => ({ data: t.map(() => Array(1024).fill(0)) })],
  ])("refuses a malformed answer (%s) instead of returning empty vectors", async (_, answer) => {
    const ai = new RecordingEmbeddingAi();
    ai.answer = answer;
    await expect(new WorkersAiEmbedder(ai).embed("ws_a", ["a", "b"], "document")).rejects.toThrow(
      EmbeddingError,
    );
  });
});
