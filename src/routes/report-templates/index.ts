import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  type ReportTemplateContent,
  type ReportTemplateVersionRow,
  reportTemplateRepo,
} from "../../db/repos/report-templates";
import type { HonoEnv } from "../../middleware/hono-env";
import {
  presentReportTemplateVersion,
  type ReportTemplateVersionDto,
} from "../../services/presenters/head-versions";
import { registerHeadRoutes } from "../heads";
import type { HeadResource } from "../heads/resource";
import {
  CreateReportTemplateBodySchema,
  ReportTemplateIdParamsSchema,
  ReportTemplatePageSchema,
  type ReportTemplateVersionBody,
  ReportTemplateVersionBodySchema,
  ReportTemplateVersionParamsSchema,
  ReportTemplateVersionSchema,
  ReportTemplateWithLatestSchema,
  storedBlocks,
} from "./schemas";

/** Report templates: versioned heads whose versions hold a language and blocks. */
const reportTemplates: HeadResource<{
  idParam: "report_template_id";
  body: ReportTemplateVersionBody;
  content: ReportTemplateContent;
  row: ReportTemplateVersionRow;
  version: ReportTemplateVersionDto;
}> = {
  path: "report-templates",
  idParam: "report_template_id",
  idPrefix: "tpl",
  tag: "Report templates",
  noun: { one: "report template", many: "report templates" },
  introduced: "a report template",
  IdParamsSchema: ReportTemplateIdParamsSchema,
  VersionParamsSchema: ReportTemplateVersionParamsSchema,
  CreateBodySchema: CreateReportTemplateBodySchema,
  VersionBodySchema: ReportTemplateVersionBodySchema,
  VersionSchema: ReportTemplateVersionSchema,
  WithLatestSchema: ReportTemplateWithLatestSchema,
  PageSchema: ReportTemplatePageSchema,
  repo: reportTemplateRepo,
  contentOf: (body) => ({ language: body.language, blocks: storedBlocks(body.blocks) }),
  presentVersion: presentReportTemplateVersion,
};

/** Registers the report template routes (the spec's Profiles and report templates section). */
export function registerReportTemplateRoutes(app: OpenAPIHono<HonoEnv>) {
  registerHeadRoutes(app, reportTemplates);
}
