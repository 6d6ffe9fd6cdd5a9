import { ANSWER_MODEL } from "../../../src/ports/answer-engine/workers-ai-prompt";
import { BGE_M3 } from "../../../src/ports/embedder/workers-ai";
import { VISION_MODEL, WHISPER_MODEL } from "../../../src/ports/media-understanding/model-outputs";
import { closed, MODEL_SCHEMAS, validator, variant, withProperties } from "./schemas";

type Schema = Record<string, unknown>;
const schemaOf = (model: string) => {
  const schema = MODEL_SCHEMAS[model];
  if (!schema) throw new Error(`no published schema for ${model}`);
  return schema;
};

/**
 * JSON mode answers with `response` as the parsed object
 * (developers.cloudflare.com/workers-ai/json-mode), where the model file says string.
 */
function jsonModeOutput(output: Schema): Schema {
  const props = output.properties as Schema;
  return {
    ...output,
    properties: { ...props, response: { anyOf: [props.response, { type: "object" }] } },
  };
}

export const embeddingInput = validator(
  closed(variant(schemaOf(BGE_M3).input, { title: "Input Embedding" })),
);
export const embeddingOutput = validator(
  closed(variant(schemaOf(BGE_M3).output, { title: "Output Embedding" })),
);
// workers-types 5.20261117.1, generated from the live catalogue, names it; the docs file does not yet.
export const whisperInput = validator(
  withProperties(closed(schemaOf(WHISPER_MODEL).input) as Schema, ["condition_on_previous_text"]),
);
export const whisperOutput = validator(closed(schemaOf(WHISPER_MODEL).output));
export const visionIn = validator(
  closed(variant(schemaOf(VISION_MODEL).input, { title: "Ai_Cf_Meta_Llama_4_Messages" })),
);
export const visionOut = validator(
  jsonModeOutput(
    closed(variant(schemaOf(VISION_MODEL).output, { requires: "response" })) as Schema,
  ),
);
export const answerIn = validator(
  closed(variant(schemaOf(ANSWER_MODEL).input, { title: "Messages" })),
);
export const answerOut = validator(
  jsonModeOutput(
    closed(variant(schemaOf(ANSWER_MODEL).output, { requires: "response" })) as Schema,
  ),
);
