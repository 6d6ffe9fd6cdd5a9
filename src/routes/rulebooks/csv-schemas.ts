import { z } from "@hono/zod-openapi";
import { CSV_IMPORT_LIMITS, RULEBOOK_LIMITS } from "../../domain/rulebooks";
import { TimestampSchema } from "../../schemas/common";
import { RulebookSchema } from "./schemas";

const L = CSV_IMPORT_LIMITS;

/** The preview body as JSON: the file's text in `csv`. */
export const CsvPreviewJsonSchema = z
  .strictObject({
    csv: z.string().openapi({
      description: "The CSV file's text",
      example: "Rule ID,Title,Description\nppe-1,Hard hats worn,In marked areas",
    }),
  })
  .openapi("CsvPreviewJsonBody");

/** The preview body as a multipart upload: the file in `file`. */
export const CsvPreviewFormSchema = z
  .strictObject({
    file: z
      .instanceof(File, { message: "must be a file upload" })
      .openapi({ type: "string", format: "binary", description: "The CSV file" }),
  })
  .openapi("CsvPreviewFormBody");

const ColumnName = z.string().min(1).max(L.columnNameChars);

/** Which column plays which role in an import. */
export const CsvMappingSchema = z
  .strictObject({
    rulebook_name: ColumnName.optional().openapi({
      description:
        "Column naming each row's rulebook: one rulebook is created per distinct name. Omitted or blank cells: `default_rulebook_name`",
      example: "Rulebook",
    }),
    rule_id: ColumnName.optional().openapi({
      description:
        "Column of rule ids (unique within each rulebook). Omitted: `rule-1`, `rule-2`, … per rulebook in row order",
      example: "Rule ID",
    }),
    rule_title: ColumnName.openapi({
      description: "Column of rule titles (required, never empty)",
      example: "Title",
    }),
    rule_description: ColumnName.optional().openapi({ example: "Description" }),
    rule_severity: ColumnName.optional().openapi({
      description:
        "Column of severities (`low`, `medium`, `high`, `critical`, any case; blank for none). An addition to the spec's mapping",
      example: "Severity",
    }),
    rule_kind: ColumnName.optional().openapi({
      description:
        "Column of rule kinds (`requirement` or `hazard`, any case; blank: a title naming a hazard, danger, risk, incident, accident, injury, near miss or violation makes a hazard, anything else a requirement). Not suggested by the preview",
      example: "Kind",
    }),
    additional_description_columns: z
      .array(ColumnName)
      .max(L.columns)
      .optional()
      .openapi({
        description:
          "Columns appended to each rule's description as `Column: value` lines (blank cells skipped)",
        example: ["Owner", "Legal reference"],
      }),
  })
  .openapi("CsvImportMapping");

/** POST /rulebooks/csv-imports */
export const CsvImportBodySchema = z
  .strictObject({
    session_id: z.string().min(1).max(128).openapi({
      description:
        "The `session_id` of a preview of this key's owner, within an hour of the preview",
      example: "rbi_01jd3m6t8y0c7x4k2n9q5r1s3v",
    }),
    default_rulebook_name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(RULEBOOK_LIMITS.nameChars)
      .optional()
      .openapi({
        description:
          "Name of the rulebook for rows without a rulebook name (required when there are such rows)",
        example: "Imported rules",
      }),
    mapping: CsvMappingSchema,
  })
  .openapi("CsvImportBody");

const nullableColumn = z.string().nullable();

/** What a preview answers. */
export const CsvPreviewSchema = z
  .object({
    session_id: z.string().openapi({ example: "rbi_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    expires_at: TimestampSchema.openapi({ description: "Import before this time (one hour)" }),
    delimiter: z
      .string()
      .openapi({ description: "The detected delimiter: `,`, `;`, tab or `|`", example: "," }),
    columns: z.array(z.string()).openapi({
      description:
        "The header's column names, trimmed; a blank name reads `Column N`, a repeat `Name (2)`",
    }),
    suggested_mapping: z
      .object({
        rulebook_name: nullableColumn,
        rule_id: nullableColumn,
        rule_title: nullableColumn,
        rule_description: nullableColumn,
        rule_severity: nullableColumn,
        additional_description_columns: z.array(z.string()),
      })
      .openapi({
        description:
          "Columns whose names look like each role (null: none did); the rest as additional description",
      }),
    row_count: z
      .number()
      .int()
      .openapi({ description: "Data rows (header and blank lines not counted)" }),
    rows: z
      .array(z.object({ line: z.number().int(), values: z.record(z.string(), z.string()) }))
      .openapi({
        description: `The first ${L.previewRows} data rows by column name, with the line each starts on`,
      }),
    errors: z.array(z.object({ line: z.number().int(), message: z.string() })).openapi({
      description: `Rows that cannot be imported as they are (at most ${L.listedErrors} listed)`,
    }),
    error_count: z.number().int(),
  })
  .openapi("CsvImportPreview");

/** What an import answers. */
export const CsvImportResultSchema = z
  .object({
    created_count: z.number().int(),
    rulebooks: z.array(RulebookSchema),
  })
  .openapi("CsvImportResult");
