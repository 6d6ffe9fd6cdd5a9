import { z } from "@hono/zod-openapi";
import type { TemplateBlock } from "../../domain/report-templates";
import { idParam } from "../../schemas/common";
import {
  HeadDescriptionSchema,
  HeadNameSchema,
  headSchemas,
  VersionParamSchema,
  versionAuthorFields,
} from "../heads/schemas";
import { ANSWER_KEY_PATTERN, TOKEN_MESSAGE, TOKEN_PATTERN } from "../profiles/schemas";

/**
 * Block types with a layout of their own: one per answer type, plus free narrative, headings
 * and tables. Any other type word is accepted and shows everything its answer holds.
 */
export const BLOCK_TYPES = [
  "heading",
  "narrative",
  "timeline",
  "table",
  "verdict",
  "measurement",
  "enumeration",
  "comparison",
  "retrieval",
  "synthesis",
] as const;

/** A BCP 47-style language tag: `en`, `ja`, `pt-BR`, `zh-Hant-TW`. */
export const LANGUAGE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

const KEY_MESSAGE = "must be 1-64 letters, digits, _, - or ., starting with a letter";
const FieldKeySchema = z.string().min(1).max(64);
const LabelSchema = z.string().trim().min(1).max(200);

const KeyLabelSchema = z
  .strictObject({
    key: FieldKeySchema.openapi({ description: "An answer field key", example: "door_state" }),
    label: LabelSchema.openapi({ example: "Door state" }),
  })
  .openapi("TemplateKeyLabel");

/**
 * One block of a report template version (the spec's Profile and report template heads section);
 * stored as `TemplateBlock`.
 */
export const TemplateBlockSchema = z
  .strictObject({
    type: z
      .string()
      .regex(TOKEN_PATTERN, TOKEN_MESSAGE)
      .openapi({
        description: `Layout: ${BLOCK_TYPES.join(", ")}; other words list the answer as is`,
        example: "timeline",
      }),
    answer_key: z
      .string()
      .regex(ANSWER_KEY_PATTERN, KEY_MESSAGE)
      .optional()
      .openapi({ description: "The answer this block renders", example: "dock_door_events" }),
    label: LabelSchema.optional().openapi({
      description: "Heading of the block",
      example: "Dock door timeline",
    }),
    field_labels: z
      .array(KeyLabelSchema)
      .max(50)
      .optional()
      .openapi({ description: "Display names of answer fields, at most 50" }),
    columns: z
      .array(KeyLabelSchema)
      .max(50)
      .optional()
      .openapi({ description: "Table columns in order, at most 50" }),
    group_by: FieldKeySchema.optional().openapi({
      description: "Field to group items by",
      example: "door",
    }),
    sort_by: FieldKeySchema.optional().openapi({
      description: "Field to sort items by",
      example: "start_time",
    }),
    sort_direction: z.enum(["asc", "desc"]).optional().openapi({ example: "asc" }),
    mapping: z
      .record(FieldKeySchema, z.string().max(200))
      .refine((map) => Object.keys(map).length <= 50, "must have at most 50 entries")
      .optional()
      .openapi({
        description: 'Value to display text, e.g. `{ "true": "Yes" }`, at most 50 entries',
        example: { open: "Open", closed: "Closed" },
      }),
  })
  .openapi("TemplateBlock");

const LanguageSchema = z
  .string()
  .regex(LANGUAGE_PATTERN, "must be a language tag such as en, ja or pt-BR")
  .max(35)
  .openapi({ description: "Language of the rendered report (BCP 47)", example: "en" });

const BlocksSchema = z
  .array(TemplateBlockSchema)
  .min(1)
  .max(100)
  .openapi({ description: "1-100 blocks, rendered in order" });

/** The body of a new report template version; also the content of an inline template. */
export const ReportTemplateVersionBodySchema = z
  .strictObject({ language: LanguageSchema, blocks: BlocksSchema })
  .openapi("CreateReportTemplateVersionRequest");

/**
 * A template given inline (POST /runs/{run_id}/reports): the version body plus an optional
 * caller-chosen `id` and `version` that identify it in the report's template reference.
 */
export const InlineTemplateSchema = z
  .strictObject({
    id: z.string().trim().min(1).max(128).optional().openapi({
      description: "The caller's name for the template, recorded in the report",
      example: "weekly-dock-summary",
    }),
    version: z.number().int().min(1).optional().openapi({
      description: "The caller's version of the template, default 1",
      example: 1,
    }),
    language: LanguageSchema,
    blocks: BlocksSchema,
  })
  .openapi("InlineReportTemplate");

/** The body of POST /report-templates. */
export const CreateReportTemplateBodySchema = z
  .strictObject({
    name: HeadNameSchema,
    description: HeadDescriptionSchema,
    language: LanguageSchema,
    blocks: BlocksSchema,
  })
  .openapi("CreateReportTemplateRequest");

/** The `{report_template_id}` path parameter. */
export const ReportTemplateIdParamsSchema = z.object({
  report_template_id: idParam("report_template_id", "tpl_01jd3m6t8y0c7x4k2n9q5r1s3v"),
});

/** The `{report_template_id}` and `{version}` path parameters. */
export const ReportTemplateVersionParamsSchema = z.object({
  ...ReportTemplateIdParamsSchema.shape,
  version: VersionParamSchema,
});

/** An immutable report template version (the spec's Profile and report template heads section). */
export const ReportTemplateVersionSchema = z
  .object({
    report_template_id: z.string().openapi({ example: "tpl_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    version: z.number().int().openapi({ description: "From 1, appended", example: 1 }),
    language: z.string().openapi({ example: "en" }),
    blocks: z.array(TemplateBlockSchema),
    ...versionAuthorFields,
  })
  .openapi("ReportTemplateVersion");

/**
 * A report template head (the spec's Profile and report template heads section) as lists show it,
 * with its latest version, and a page.
 */
export const {
  WithLatestSchema: ReportTemplateWithLatestSchema,
  PageSchema: ReportTemplatePageSchema,
} = headSchemas("ReportTemplate", "tpl_01jd3m6t8y0c7x4k2n9q5r1s3v", ReportTemplateVersionSchema);

/** The body of a new report template version, as validated. */
export type ReportTemplateVersionBody = z.infer<typeof ReportTemplateVersionBodySchema>;
/** A report template version on the wire. */
export type ReportTemplateVersion = z.infer<typeof ReportTemplateVersionSchema>;

/** Blocks as validated, in the stored shape (the compiler checks they fit `TemplateBlock`). */
export function storedBlocks(blocks: z.infer<typeof BlocksSchema>): TemplateBlock[] {
  return blocks;
}
