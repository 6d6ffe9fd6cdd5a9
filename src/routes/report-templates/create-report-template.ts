import type { OpenAPIHono } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { insertReportTemplate } from "../../db/repos/report-templates";
import type { HonoEnv } from "../../env";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { alphaRoute } from "../define";
import { storedName } from "../profiles/heads";
import {
  CreateReportTemplateBodySchema,
  presentReportTemplateWithLatest,
  ReportTemplateWithLatestSchema,
  storedBlocks,
} from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS", idempotent: true, errors: [409] },
  {
    method: "post",
    path: "/report-templates",
    tags: ["Report templates"],
    summary: "Create a report template",
    description:
      "Creates a report template and its immutable version 1. A report template without a name is anonymous: readable by id, never listed, and it takes no new versions.",
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: CreateReportTemplateBodySchema } },
      },
    },
    responses: {
      201: {
        description: "The report template with version 1",
        content: { "application/json": { schema: ReportTemplateWithLatestSchema } },
      },
    },
  },
);

/** POST /report-templates */
export function registerCreateReportTemplate(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const name = storedName(body.name);
    const created = await insertReportTemplate(
      database(c.env.DB),
      {
        id: newId("tpl"),
        workspaceId: c.var.auth.workspaceId,
        name,
        description: body.description || null,
        anonymous: name === null,
        createdBy: c.var.auth.keyId,
        createdAt: nowIso(),
      },
      { language: body.language, blocks: storedBlocks(body.blocks) },
    );
    return c.json(presentReportTemplateWithLatest(created), 201);
  });
}
