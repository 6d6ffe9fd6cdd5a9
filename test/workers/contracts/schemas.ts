import Ajv, { type ValidateFunction } from "ajv";
import bgeM3 from "../../fixtures/contracts/workers-ai/bge-m3.json";
import llama33 from "../../fixtures/contracts/workers-ai/llama-3.3-70b-instruct-fp8-fast.json";
import llama4Scout from "../../fixtures/contracts/workers-ai/llama-4-scout-17b-16e-instruct.json";
import whisper from "../../fixtures/contracts/workers-ai/whisper-large-v3-turbo.json";

type Schema = Record<string, unknown>;

/** The published model files, by model name. */
export const MODEL_SCHEMAS = {
  [bgeM3.name]: bgeM3.schema,
  [whisper.name]: whisper.schema,
  [llama4Scout.name]: llama4Scout.schema,
  [llama33.name]: llama33.schema,
} as Record<string, { input: Schema; output: Schema }>;

/**
 * The variant of a published `oneOf` that a call means to use, by its title or by a property it
 * requires. The published variants are not exclusive (Async Batch requires nothing, and every
 * embedding output variant is optional throughout), so strict `oneOf` fails on any value.
 */
export function variant(schema: Schema, pick: { title?: string; requires?: string }): Schema {
  const variants = (schema.oneOf ?? []) as Schema[];
  const found = variants.find(
    (v) =>
      (pick.title !== undefined && v.title === pick.title) ||
      (pick.requires !== undefined && ((v.required ?? []) as string[]).includes(pick.requires)),
  );
  if (!found) throw new Error(`no variant ${JSON.stringify(pick)}`);
  return found;
}

/**
 * The schema with every object that lists its properties closed to others: the published
 * schemas leave objects open, so a misspelt field on either side would otherwise pass.
 */
export function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== "object") return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] =
      key === "properties" && value !== null && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, closed(v)]))
        : closed(value);
  }
  if (copy.properties !== undefined && copy.additionalProperties === undefined) {
    copy.additionalProperties = false;
  }
  return copy;
}

/** `schema` with more top-level properties, any value: what a newer catalogue names. */
export function withProperties(schema: Schema, names: readonly string[]): Schema {
  const extra = Object.fromEntries(names.map((name) => [name, {}]));
  return { ...schema, properties: { ...(schema.properties as Schema), ...extra } };
}

// The files carry documentation keywords (contentType, format: binary) that are not JSON Schema.
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });

/** A validator whose errors are readable in an assertion message. */
export function validator(schema: unknown): (value: unknown) => string[] {
  const validate: ValidateFunction = ajv.compile(schema as Schema);
  return (value) =>
    validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
}
