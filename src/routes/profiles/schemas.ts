import { z } from "@hono/zod-openapi";
import { ANSWER_TYPES } from "../../domain/answers";
import { idParam } from "../../schemas/common";
import {
  HeadDescriptionSchema,
  HeadNameSchema,
  headSchemas,
  VersionParamSchema,
  versionAuthorFields,
} from "../heads/schemas";

/** `answer_key` and field keys: 1-64 letters, digits, `_`, `-` or `.`, starting with a letter. */
export const ANSWER_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const KEY_MESSAGE = "must be 1-64 letters, digits, _, - or ., starting with a letter";
/**
 * Open vocabularies the spec gives only examples of (`aggregation_level` e.g. `video`, field
 * `type` e.g. `string`, `accepted_types` e.g. `clip`, block `type` e.g. `timeline`): any
 * such word is stored; the ones listed beside each field are the ones the engine acts on.
 */
export const TOKEN_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
export const TOKEN_MESSAGE = "must be 1-64 letters, digits, _ or -, starting with a letter";

/** Evidence kinds an answer spec may accept (`clip` is a cut of the video itself). */
export const EVIDENCE_TYPES = [
  "clip",
  "transcript",
  "ocr",
  "scene",
  "thumbnail",
  "metadata",
] as const;
/** Value types of an answer field. */
export const FIELD_TYPES = ["string", "number", "integer", "boolean"] as const;

/**
 * Adds a 400 issue at `[index, field]` for every item whose `field` repeats an earlier
 * item's (for superRefine on arrays, so the error names the exact element).
 */
function rejectDuplicates<T>(
  items: readonly T[],
  field: string,
  keyOf: (item: T) => string,
  ctx: z.RefinementCtx,
): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (seen.has(key)) {
      ctx.addIssue({ code: "custom", path: [index, field], message: `repeats "${key}"` });
    }
    seen.add(key);
  });
}

function token(description: string, example: string) {
  return z
    .string()
    .regex(TOKEN_PATTERN, TOKEN_MESSAGE)
    .optional()
    .openapi({ description, example });
}

const AnswerFieldSchema = z
  .strictObject({
    key: z.string().regex(ANSWER_KEY_PATTERN, KEY_MESSAGE).openapi({ example: "door_state" }),
    label: z.string().trim().min(1).max(200).openapi({ example: "Door state" }),
    description: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .optional()
      .openapi({ example: "Whether the dock door is open or closed" }),
    type: z
      .string()
      .regex(TOKEN_PATTERN, TOKEN_MESSAGE)
      .optional()
      .openapi({
        description: `Value type: ${FIELD_TYPES.join(", ")}; other words are kept as given`,
        example: "string",
      }),
    required: z.boolean().optional().openapi({ example: true }),
  })
  .openapi("AnswerField");

const AnswerEvidencePolicySchema = z
  .strictObject({
    accepted_types: z
      .array(z.string().regex(TOKEN_PATTERN, TOKEN_MESSAGE))
      .min(1)
      .max(20)
      .refine((types) => new Set(types).size === types.length, "must not repeat a type")
      .optional()
      .openapi({
        description:
          `Evidence kinds the answer may cite: ${EVIDENCE_TYPES.join(", ")}. Other words are ` +
          "kept but cite nothing; with none of these, `clip` applies",
        example: ["clip"],
      }),
    per_field: z
      .boolean()
      .optional()
      .openapi({ description: "Each field cites its own evidence", example: false }),
    required: z
      .boolean()
      .optional()
      .openapi({ description: "An answer without evidence is not accepted", example: true }),
  })
  .openapi("AnswerEvidencePolicy");

/**
 * One answer specification of a profile version (the spec's Profile and report template heads
 * section); stored as `AnswerSpec`.
 */
export const AnswerSpecSchema = z
  .strictObject({
    answer_key: z.string().regex(ANSWER_KEY_PATTERN, KEY_MESSAGE).openapi({
      description: "Unique within the version; names the answer in runs and report blocks",
      example: "dock_door_events",
    }),
    answer_type: z.enum(ANSWER_TYPES).openapi({ example: "timeline" }),
    aggregation_level: token("What one answer covers", "video"),
    coverage: token("How much of the media must be inspected", "complete"),
    temporal_granularity: token("Unit of time the answer is built from", "semantic_segment"),
    temporal_scope: token("Which part of the timeline the answer covers", "windowed"),
    evidence: AnswerEvidencePolicySchema.optional(),
    fields: z
      .array(AnswerFieldSchema)
      .max(50)
      .superRefine((fields, ctx) => rejectDuplicates(fields, "key", (f) => f.key, ctx))
      .optional()
      .openapi({ description: "Typed fields of each answer item, at most 50, keys unique" }),
    description: z.string().trim().min(1).max(2000).optional().openapi({
      description: "What to look for (the profile's instructions also apply)",
      example: "Every time a dock door opens or closes, with who operated it.",
    }),
  })
  .openapi("AnswerSpec");

/** 1-50 answer specs with unique `answer_key`s. */
export const AnswerSpecsSchema = z
  .array(AnswerSpecSchema)
  .min(1)
  .max(50)
  .superRefine((specs, ctx) => rejectDuplicates(specs, "answer_key", (s) => s.answer_key, ctx))
  .openapi({ description: "1-50 answer specs; `answer_key` unique within the version" });

const InstructionsSchema = z
  .string()
  .max(20_000)
  .refine((text) => text.trim() !== "", "must not be blank")
  .openapi({
    description: "What the analysis is for and how to answer, up to 20,000 characters",
    example: "Review the loading dock footage for safety practice.",
  });

/** The body of a new profile version; also what a profile version holds. */
export const ProfileVersionBodySchema = z
  .strictObject({ instructions: InstructionsSchema, answer_specs: AnswerSpecsSchema })
  .openapi("CreateProfileVersionRequest");

/** The body of POST /profiles. */
export const CreateProfileBodySchema = z
  .strictObject({
    name: HeadNameSchema,
    description: HeadDescriptionSchema,
    instructions: InstructionsSchema,
    answer_specs: AnswerSpecsSchema,
  })
  .openapi("CreateProfileRequest");

/** The `{profile_id}` path parameter. */
export const ProfileIdParamsSchema = z.object({
  profile_id: idParam("profile_id", "prof_01jd3m6t8y0c7x4k2n9q5r1s3v"),
});

/** The `{profile_id}` and `{version}` path parameters. */
export const ProfileVersionParamsSchema = z.object({
  ...ProfileIdParamsSchema.shape,
  version: VersionParamSchema,
});

/** An immutable profile version (the spec's Profile and report template heads section). */
export const ProfileVersionSchema = z
  .object({
    profile_id: z.string().openapi({ example: "prof_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    version: z.number().int().openapi({ description: "From 1, appended", example: 1 }),
    instructions: z.string(),
    answer_specs: z.array(AnswerSpecSchema),
    ...versionAuthorFields,
  })
  .openapi("ProfileVersion");

/**
 * A profile head (the spec's Profile and report template heads section) as lists show it, with its
 * latest version, and a page of them.
 */
export const { WithLatestSchema: ProfileWithLatestSchema, PageSchema: ProfilePageSchema } =
  headSchemas("Profile", "prof_01jd3m6t8y0c7x4k2n9q5r1s3v", ProfileVersionSchema);

/** The body of a new profile version, as validated. */
export type ProfileVersionBody = z.infer<typeof ProfileVersionBodySchema>;
/** A profile version on the wire. */
export type ProfileVersion = z.infer<typeof ProfileVersionSchema>;
