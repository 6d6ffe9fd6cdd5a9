import type { OpenAPIHono } from "@hono/zod-openapi";
import { CSV_IMPORT_LIMITS } from "../../domain/rulebooks";
import type { HonoEnv } from "../../middleware/hono-env";
import { runCsvImport } from "../../services/rulebooks/csv-imports";
import { alphaRoute } from "../define";
import { CsvImportBodySchema, CsvImportResultSchema } from "./csv-schemas";

const route = alphaRoute(
  { permission: "MANAGE_RULEBOOKS", errors: [410] },
  {
    method: "post",
    path: "/rulebooks/csv-imports",
    operationId: "createRulebookCsvImport",
    tags: ["Rulebooks"],
    summary: "Import rulebooks from a previewed CSV file",
    description: `Step 2: creates one rulebook per distinct value of the \`rulebook_name\` column (rows without one go to \`default_rulebook_name\`), in order of first appearance, at most ${CSV_IMPORT_LIMITS.rulebooks}; additional columns become \`Column: value\` lines of the description. All rulebooks are written in one transaction. Any problem writes nothing and answers 400 with every problem in \`errors\` (at most ${CSV_IMPORT_LIMITS.listedErrors}): a mapping naming an unknown column is named at \`mapping.<role>\`; a row's problem at \`csv[<line>].<role>\` (the line the row starts on), such as an empty title or a rule id repeated within one rulebook. An unknown session, or one of another owner, answers 404; an expired one 410 \`csv-import-expired\` (preview again). A session can be imported more than once; send an \`Idempotency-Key\` to make a retry safe.`,
    request: {
      body: { required: true, content: { "application/json": { schema: CsvImportBodySchema } } },
    },
    responses: {
      201: {
        description: "The rulebooks created",
        content: { "application/json": { schema: CsvImportResultSchema } },
      },
    },
  },
);

/** POST /rulebooks/csv-imports */
export function registerCreateCsvImport(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    return c.json(await runCsvImport(c.var.deps, c.var.auth, c.req.valid("json")), 201);
  });
}
