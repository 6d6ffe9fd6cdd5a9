/**
 * Vectorize (V2) limits, from developers.cloudflare.com/vectorize/platform/limits unless noted.
 * The simulator refuses what the platform refuses, so local runs cannot depend on more.
 */
export const VECTORIZE_LIMITS = {
  maxDimensions: 1536,
  maxIdBytes: 64,
  /** "Metadata per vector: 10KiB", measured as the vector's metadata JSON. */
  maxMetadataBytes: 10 * 1024,
  /** topK with `returnValues: true` or `returnMetadata: "all"` (vectorize/reference/client-api). */
  maxTopKWithValuesOrAllMetadata: 20,
  /** topK otherwise, `returnMetadata: "indexed"` included (vectorize/reference/client-api). */
  maxTopK: 100,
  defaultTopK: 5,
  /** Upsert and insert batches through a Workers binding. */
  maxBatch: 1000,
  maxNamespaceBytes: 64,
  maxNamespaces: 50_000,
  maxVectors: 5_000_000,
  maxMetadataIndexes: 10,
  /** Indexed string metadata keeps its first 64 bytes (vectorize/reference/metadata-filtering). */
  maxIndexedBytes: 64,
  /** A filter's compact JSON is under 2,048 bytes (vectorize/reference/metadata-filtering). */
  maxFilterBytes: 2048,
  maxFilterKeyChars: 512,
} as const;

/** A call Vectorize would refuse; the message names the limit. */
export class VectorizeLimitError extends Error {
  override readonly name = "VectorizeLimitError";
}

const encoder = new TextEncoder();

/** UTF-8 byte length. */
export const bytes = (text: string) => encoder.encode(text).length;

/** Checks a vector id: 1 to 64 bytes. */
export function checkId(id: unknown): string {
  if (typeof id !== "string" || id === "" || bytes(id) > VECTORIZE_LIMITS.maxIdBytes) {
    throw new VectorizeLimitError(`vector id must be a string of 1 to 64 bytes: ${String(id)}`);
  }
  return id;
}

/** Checks a namespace name: 1 to 64 bytes. */
export function checkNamespace(namespace: unknown): string | null {
  if (namespace === undefined || namespace === null) return null;
  if (
    typeof namespace !== "string" ||
    namespace === "" ||
    bytes(namespace) > VECTORIZE_LIMITS.maxNamespaceBytes
  ) {
    throw new VectorizeLimitError(
      `namespace must be a string of 1 to 64 bytes: ${String(namespace)}`,
    );
  }
  return namespace;
}

/** Checks a dense vector of the index's dimensions; answers it as float32, as Vectorize stores it. */
export function checkValues(values: ArrayLike<number>, dimensions: number): Float32Array {
  if (values.length !== dimensions) {
    throw new VectorizeLimitError(
      `vector has ${values.length} dimensions; the index has ${dimensions}`,
    );
  }
  const out = Float32Array.from(values);
  if (out.some((v) => !Number.isFinite(v)))
    throw new VectorizeLimitError("vector values must be finite numbers");
  return out;
}

/** Checks a vector's metadata: a JSON object of at most 10 KiB. */
export function checkMetadata(metadata: unknown): string | null {
  if (metadata === undefined || metadata === null) return null;
  if (typeof metadata !== "object" || Array.isArray(metadata)) {
    throw new VectorizeLimitError("metadata must be an object");
  }
  const json = JSON.stringify(metadata);
  if (bytes(json) > VECTORIZE_LIMITS.maxMetadataBytes) {
    throw new VectorizeLimitError(`metadata is ${bytes(json)} bytes; at most 10 KiB per vector`);
  }
  return json;
}

/** The string a metadata index keeps: the first 64 bytes, cut on a UTF-8 character boundary. */
export function indexedString(value: string): string {
  if (bytes(value) <= VECTORIZE_LIMITS.maxIndexedBytes) return value;
  let out = "";
  for (const char of value) {
    if (bytes(out + char) > VECTORIZE_LIMITS.maxIndexedBytes) break;
    out += char;
  }
  return out;
}
