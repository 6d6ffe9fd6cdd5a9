import { bytes, indexedString, VECTORIZE_LIMITS, VectorizeLimitError } from "./limits";

type Scalar = string | number | boolean | null;
const COMPARISONS = new Set(["$eq", "$ne", "$lt", "$lte", "$gt", "$gte"]);
const COLLECTIONS = new Set(["$in", "$nin"]);

const isScalar = (v: unknown): v is Scalar =>
  v === null || ["string", "number", "boolean"].includes(typeof v);

/**
 * Checks a metadata filter as documented (vectorize/reference/metadata-filtering and the
 * binding's `VectorizeVectorMetadataFilter`): a non-empty object under 2,048 bytes of compact
 * JSON; keys non-empty, at most 512 characters, without `"` or `|`, not starting with `$`
 * (a `.` nests); values a scalar, or one operator object of $eq/$ne/$lt/$lte/$gt/$gte with a
 * scalar or of $in/$nin with an array of scalars. There is no `$or`.
 */
export function checkFilter(filter: unknown): Record<string, unknown> {
  if (filter === null || typeof filter !== "object" || Array.isArray(filter)) {
    throw new VectorizeLimitError("filter must be an object");
  }
  const entries = Object.entries(filter);
  if (entries.length === 0) throw new VectorizeLimitError("filter must not be empty");
  if (bytes(JSON.stringify(filter)) >= VECTORIZE_LIMITS.maxFilterBytes) {
    throw new VectorizeLimitError("filter must be under 2048 bytes of compact JSON");
  }
  for (const [key, condition] of entries) {
    if (
      key === "" ||
      key.length > VECTORIZE_LIMITS.maxFilterKeyChars ||
      /["|]/.test(key) ||
      key.startsWith("$")
    ) {
      throw new VectorizeLimitError(`invalid filter key: ${key}`);
    }
    if (isScalar(condition)) continue;
    const ops =
      typeof condition === "object" && !Array.isArray(condition) ? Object.entries(condition) : [];
    if (ops.length === 0) throw new VectorizeLimitError(`invalid filter on ${key}`);
    for (const [op, operand] of ops) {
      const ok =
        (COMPARISONS.has(op) && isScalar(operand)) ||
        (COLLECTIONS.has(op) &&
          Array.isArray(operand) &&
          operand.every((v) => v !== null && isScalar(v)));
      if (!ok) throw new VectorizeLimitError(`unsupported filter operator ${op} on ${key}`);
    }
  }
  return filter as Record<string, unknown>;
}

/** A metadata property by dotted path, as the metadata index holds it (strings cut to 64 bytes). */
function indexedValue(metadata: Record<string, unknown>, path: string): unknown {
  let value: unknown = metadata;
  for (const part of path.split(".")) {
    value =
      value !== null && typeof value === "object"
        ? (value as Record<string, unknown>)[part]
        : undefined;
  }
  return typeof value === "string" ? indexedString(value) : value;
}

function compare(op: string, value: unknown, operand: unknown): boolean {
  const cut = typeof operand === "string" ? indexedString(operand) : operand;
  if (op === "$eq") return value === cut;
  if (op === "$ne") return value !== cut;
  if (op === "$in") return (operand as unknown[]).some((o) => compare("$eq", value, o));
  if (op === "$nin") return !(operand as unknown[]).some((o) => compare("$eq", value, o));
  if (value === undefined || value === null || typeof value !== typeof cut) return false;
  const [a, b] = [value as number | string, cut as number | string];
  return op === "$lt" ? a < b : op === "$lte" ? a <= b : op === "$gt" ? a > b : a >= b;
}

/**
 * Whether a vector passes a checked filter. Only properties with a metadata index can match:
 * Vectorize filters through its metadata indexes, so a filter on any other property finds nothing.
 */
export function passes(
  filter: Record<string, unknown>,
  metadata: Record<string, unknown>,
  indexed: ReadonlySet<string>,
): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (!indexed.has(key)) return false;
    const value = indexedValue(metadata, key);
    if (isScalar(condition)) return compare("$eq", value, condition);
    return Object.entries(condition as Record<string, unknown>).every(([op, operand]) =>
      compare(op, value, operand),
    );
  });
}
