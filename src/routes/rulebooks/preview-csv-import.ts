import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { CSV_IMPORT_LIMITS } from "../../domain/rulebooks";
import { ApiError, invalidRequest } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { previewCsvImport } from "../../services/rulebooks/csv-imports";
import { alphaRoute } from "../define";
import { CsvPreviewFormSchema, CsvPreviewJsonSchema, CsvPreviewSchema } from "./csv-schemas";

/** The path whose request body may be larger than the API's 1 MiB (see app.ts). */
export const CSV_PREVIEW_PATH = "/rulebooks/csv-imports/preview";

const route = alphaRoute(
  { permission: "MANAGE_RULEBOOKS" },
  {
    method: "post",
    path: CSV_PREVIEW_PATH,
    operationId: "previewRulebookCsvImport",
    tags: ["Rulebooks"],
    summary: "Preview a CSV import",
    description: `Step 1 of a CSV import: send the file as a \`text/csv\` body, as JSON \`{ "csv": "…" }\` or as a multipart upload (field \`file\`). The file must be UTF-8 (a BOM is fine; other encodings answer 400), at most ${CSV_IMPORT_LIMITS.fileBytes} bytes (5 MiB) and ${CSV_IMPORT_LIMITS.rows} data rows (413 beyond). Comma, semicolon, tab or pipe delimiters are detected; quoted fields may hold delimiters, doubled quotes and line breaks; CRLF or LF. Answers an import session (\`rbi_…\`, valid one hour) with the columns, a suggested mapping, the row count, the first rows and the rows that cannot be imported, by line. Nothing becomes a rulebook until \`POST /rulebooks/csv-imports\`.`,
    request: {
      body: {
        required: false,
        content: {
          "text/csv": {
            schema: z.string().openapi({ example: "Rule ID,Title\nppe-1,Hard hats worn" }),
          },
          "application/json": { schema: CsvPreviewJsonSchema },
          "multipart/form-data": { schema: CsvPreviewFormSchema },
        },
      },
    },
    responses: {
      201: {
        description: "The import session and what the file holds",
        content: { "application/json": { schema: CsvPreviewSchema } },
      },
    },
  },
);

/** POST /rulebooks/csv-imports/preview */
export function registerPreviewCsvImport(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const type = c.req.header("content-type") ?? "";
    let input: Uint8Array | string;
    let field: string;
    if (/^text\/csv/i.test(type)) {
      input = new Uint8Array(await c.req.arrayBuffer());
      field = "body";
    } else if (/json/i.test(type)) {
      const body = c.req.valid("json");
      if (typeof body !== "object" || !("csv" in body)) throw new Error("JSON body not validated");
      input = body.csv;
      field = "csv";
    } else if (/^multipart\/form-data/i.test(type)) {
      const body = c.req.valid("form");
      if (typeof body !== "object" || !("file" in body)) throw new Error("form body not validated");
      input = new Uint8Array(await body.file.arrayBuffer());
      field = "file";
    } else if (type === "") {
      throw invalidRequest([
        {
          path: "body",
          message:
            "is required: send the CSV as text/csv, as JSON { csv } or as multipart field file",
        },
      ]);
    } else {
      throw new ApiError(
        "unsupported-media-type",
        "Send the CSV as text/csv, as application/json { csv } or as multipart/form-data (field file).",
      );
    }
    return c.json(await previewCsvImport(c.var.deps, c.var.auth, input, field), 201);
  });
}
