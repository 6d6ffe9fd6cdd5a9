import { z } from "zod";
import { RESULT_STATES } from "../../domain/answers";
import { MODEL_REASONS, type SentSegment } from "./workers-ai-prompt";

const ValueSchema = z.union([z.string(), z.number(), z.boolean()]).nullish();

const ModelItemSchema = z.object({
  label: z.string().trim().min(1).max(500),
  result_state: z.enum(RESULT_STATES),
  value: ValueSchema,
  evidence_ids: z.array(z.string()).default([]),
});

/** What the model must return (the JSON schema of the request, validated). */
export const ModelAnswerSchema = z.object({
  result_state: z.enum(RESULT_STATES),
  reason_code: z.enum(MODEL_REASONS).nullish(),
  summary: z.string().max(4000),
  value: ValueSchema,
  unit: z.string().max(40).nullish(),
  evidence_ids: z.array(z.string()),
  quotes: z.array(z.string().max(1000)).max(20).default([]),
  items: z.array(ModelItemSchema).max(100).default([]),
});
/** A validated model answer. */
export type ModelAnswer = z.infer<typeof ModelAnswerSchema>;

/** The model's JSON: `response` as an object (JSON mode) or a string, code fences tolerated. */
export function parseModelOutput(output: unknown): ModelAnswer | null {
  let body: unknown =
    typeof output === "object" && output !== null && "response" in output
      ? (output as { response: unknown }).response
      : output;
  if (typeof body === "string") {
    const text = body
      .trim()
      .replace(/^```(?:json)?\s*/i, "")
      .replace(/\s*```$/, "");
    try {
      body = JSON.parse(text);
    } catch {
      return null;
    }
  }
  const parsed = ModelAnswerSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}

/** Token counts the model reported, when it did. */
export function reportedUsage(output: unknown): { input?: number; output?: number } {
  const usage =
    typeof output === "object" && output !== null && "usage" in output
      ? (output as { usage: unknown }).usage
      : undefined;
  const parsed = z
    .object({
      prompt_tokens: z.number().int().min(0).optional(),
      completion_tokens: z.number().int().min(0).optional(),
    })
    .safeParse(usage);
  if (!parsed.success) return {};
  return { input: parsed.data.prompt_tokens, output: parsed.data.completion_tokens };
}

/** What the engine knows about completeness when it reads the model's answer. */
export interface SendFacts {
  sent: SentSegment[];
  /** Segments with accepted evidence that were read but not sent, and why. */
  unsent: "none" | "budget" | "context";
}

/** The model's answers by question id, from JSON mode's object or a JSON string. */
export function batchReplies(output: unknown): Map<string, unknown> {
  let body: unknown =
    typeof output === "object" && output !== null && "response" in output
      ? (output as { response: unknown }).response
      : output;
  if (typeof body === "string") {
    try {
      body = JSON.parse(
        body
          .trim()
          .replace(/^```(?:json)?\s*/i, "")
          .replace(/\s*```$/, ""),
      );
    } catch {
      return new Map();
    }
  }
  const list = (body as { answers?: unknown } | null)?.answers;
  if (!Array.isArray(list)) return new Map();
  return new Map(
    list.flatMap((item: unknown) => {
      const id = (item as { question_id?: unknown } | null)?.question_id;
      return typeof id === "string" ? [[id, item] as const] : [];
    }),
  );
}
