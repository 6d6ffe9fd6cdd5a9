import type { Embedder, EmbeddingKind } from "./port";

/** BGE-M3: multilingual (transcripts come in any language), 8k-token context, 1024 dims. */
export const BGE_M3 = "@cf/baai/bge-m3";
const DIMENSIONS = 1024;
/** The model's documented maximum texts per call. */
const MAX_BATCH_TEXTS = 100;
/** Keeps one request body to a few hundred KB whatever the transcripts hold. */
const MAX_BATCH_CHARS = 200_000;
/**
 * 8,192 tokens is at least ~8k characters in every script (CJK runs about one token per
 * character); longer texts are cut here and `truncate_inputs` covers the rest.
 */
const MAX_TEXT_CHARS = 8_000;
/** Calls in flight per `embed`: faster indexing of long videos, well inside rate limits. */
const CONCURRENCY = 3;

/** The slice of the `Ai` binding this adapter uses; `env.AI` satisfies it. */
export interface EmbeddingAi {
  run(model: typeof BGE_M3, inputs: Ai_Cf_Baai_Bge_M3_Input_Embedding): Promise<unknown>;
}

/** A failed or malformed embedding call; the queue consumer retries the message. */
export class EmbeddingError extends Error {
  override readonly name = "EmbeddingError";
}

/**
 * Workers AI embeddings (production). Texts go out in batches of at most 100 (and 200k
 * characters), cut to the model's context; vectors come back in input order, L2-normalised.
 * BGE-M3 needs no query instruction, so `kind` changes nothing; IDF learning is a no-op.
 * A blank text embeds to the zero vector without a call, as with the local embedder.
 */
export class WorkersAiEmbedder implements Embedder {
  readonly model = BGE_M3;
  readonly dimensions = DIMENSIONS;

  constructor(private readonly ai: EmbeddingAi) {}

  async learn(): Promise<void> {}

  async forget(): Promise<void> {}

  async embed(
    _workspaceId: string,
    texts: string[],
    _kind: EmbeddingKind,
  ): Promise<Float32Array[]> {
    const vectors: Float32Array[] = texts.map(() => new Float32Array(DIMENSIONS));
    const pending = texts.flatMap((text, index) =>
      text.trim() === "" ? [] : [{ index, text: truncate(text) }],
    );
    const batches = batchesOf(pending);
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (!failed && next < batches.length) {
        const batch = batches[next++] ?? [];
        // One failure fails the call: stop spending calls on the other batches.
        const embedded = await this.run(batch.map((item) => item.text)).catch((error: unknown) => {
          failed = true;
          throw error;
        });
        batch.forEach((item, i) => {
          const vector = embedded[i];
          if (vector !== undefined) vectors[item.index] = vector;
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, batches.length) }, worker));
    return vectors;
  }

  modelCalls(texts: readonly string[]): number {
    const pending = texts.flatMap((text) => (text.trim() === "" ? [] : [{ text: truncate(text) }]));
    return batchesOf(pending).length;
  }

  private async run(texts: string[]): Promise<Float32Array[]> {
    let output: unknown;
    try {
      output = await this.ai.run(BGE_M3, { text: texts, truncate_inputs: true });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new EmbeddingError(`${BGE_M3} failed on ${texts.length} texts: ${message}`, {
        cause: error,
      });
    }
    const data =
      typeof output === "object" && output !== null && "data" in output ? output.data : undefined;
    if (!Array.isArray(data) || data.length !== texts.length) {
      throw new EmbeddingError(
        `${BGE_M3} returned ${Array.isArray(data) ? data.length : "no"} vectors for ${texts.length} texts`,
      );
    }
    return data.map((row, i) => normalised(row, i));
  }
}

/** Consecutive groups within both the count and the character budget. */
function batchesOf<T extends { text: string }>(items: T[]): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let chars = 0;
  for (const item of items) {
    if (
      current.length === MAX_BATCH_TEXTS ||
      (current.length > 0 && chars + item.text.length > MAX_BATCH_CHARS)
    ) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(item);
    chars += item.text.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Cuts a text to the context budget without splitting a surrogate pair. */
function truncate(text: string): string {
  if (text.length <= MAX_TEXT_CHARS) return text;
  const code = text.charCodeAt(MAX_TEXT_CHARS - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? MAX_TEXT_CHARS - 1 : MAX_TEXT_CHARS;
  return text.slice(0, end);
}

function normalised(row: unknown, position: number): Float32Array {
  if (!Array.isArray(row) || row.length !== DIMENSIONS) {
    throw new EmbeddingError(`${BGE_M3} vector ${position} does not have ${DIMENSIONS} values`);
  }
  const vector = new Float32Array(DIMENSIONS);
  let squares = 0;
  for (let i = 0; i < DIMENSIONS; i++) {
    const value: unknown = row[i];
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new EmbeddingError(`${BGE_M3} vector ${position} has a non-finite value`);
    }
    vector[i] = value;
    squares += value * value;
  }
  if (squares === 0) throw new EmbeddingError(`${BGE_M3} vector ${position} is all zeros`);
  const inv = 1 / Math.sqrt(squares);
  for (let i = 0; i < DIMENSIONS; i++) vector[i] = (vector[i] ?? 0) * inv;
  return vector;
}
