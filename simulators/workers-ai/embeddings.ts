import { textFeatures } from "../../src/lib/text/text-features";

/** BGE-M3's output size; the simulated vectors have the same shape. */
const DIMENSIONS = 1024;
/** BGE-M3 takes at most 100 texts a call (its model page). */
const MAX_TEXTS = 100;

/**
 * Embeddings by hashing: each text's stemmed words, word pairs and character grams are
 * hashed into 1,024 signed dimensions and the vector is L2-normalised, so texts sharing words
 * are near each other. Deterministic, with BGE-M3's request and response shapes.
 */
export function embed(inputs: unknown): { shape: number[]; data: number[][] } {
  const text = (inputs as { text?: unknown } | null)?.text;
  const texts = typeof text === "string" ? [text] : text;
  if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string"))
    throw Object.assign(new Error("5004: text must be a string or an array of strings"), {
      code: 5004,
    });
  if (texts.length > MAX_TEXTS)
    throw Object.assign(new Error(`3006: at most ${MAX_TEXTS} texts a request`), { code: 3006 });
  const data = (texts as string[]).map(vectorOf);
  return { shape: [data.length, DIMENSIONS], data };
}

function vectorOf(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  const f = textFeatures(text);
  f.hashes.forEach((hash, i) => {
    const weight = (f.counts[i] ?? 1) * (f.boosts[i] ?? 1) * (f.groups[i] === 2 ? 0.3 : 1);
    const sign = hash & 1 ? 1 : -1;
    const at = (hash >>> 1) % DIMENSIONS;
    vector[at] = (vector[at] ?? 0) + sign * weight;
  });
  const norm = Math.hypot(...vector);
  return norm > 0 ? vector.map((v) => v / norm) : vector;
}
