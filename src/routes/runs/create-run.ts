import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { DEFAULT_EXECUTION_PROFILE, EXECUTION_PROFILE_REFS } from "../../domain/execution-profiles";
import { invalidRequest, notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { createAnalysisRun, DEFERRED_START_SECONDS } from "../../services/runs/create-run";
import { alphaRoute } from "../define";
import { LANGUAGE_PATTERN } from "../report-templates/schemas";
import { presentRun, RunSchema } from "./schemas";

/** Fields that would carry an inline profile or template: POST /runs takes stored ones only. */
const INLINE_FIELDS = ["profile", "instructions", "answer_specs", "report_template", "blocks"];

const CreateRunBodySchema = z
  .object({
    kind: z
      .enum(["analysis", "workflow"])
      .default("analysis")
      .openapi({ description: "`analysis` (or a workflow run)" }),
    source_ids: z
      .array(z.string().min(1).max(128))
      .min(1)
      .max(50)
      .optional()
      .openapi({ description: "Analysis: completed videos of the workspace (at most 50)" }),
    profile_id: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .openapi({ description: "A stored profile; inline profiles are not accepted" }),
    profile_version: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({ description: "Omit for the latest, which the run records" }),
    report_template_id: z.string().min(1).max(128).optional(),
    report_template_version: z.number().int().min(1).optional(),
    formats: z
      .array(z.enum(["json", "markdown"]))
      .max(10)
      .optional()
      .openapi({ description: "Reports to render when the run completes (repeats count once)" }),
    execution_profile_ref: z
      .enum(EXECUTION_PROFILE_REFS)
      .optional()
      .openapi({ description: `Processing budget; default ${DEFAULT_EXECUTION_PROFILE}` }),
    locale: z.string().regex(LANGUAGE_PATTERN).optional().openapi({
      description: "Language of the run's answers and default reports; default `en`",
      example: "en",
    }),
    execute_now: z
      .boolean()
      .optional()
      .openapi({
        description: `false defers the start by ${DEFERRED_START_SECONDS} s; default true`,
      }),
    workflow_id: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .openapi({ description: "Workflow runs: a visible workflow" }),
    source_snapshot: z
      .object({ source_ids: z.array(z.string()) })
      .strict()
      .optional()
      .openapi({ description: "Workflow option" }),
  })
  .passthrough()
  .openapi("CreateRunRequest");

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS", idempotent: true, errors: [409] },
  {
    method: "post",
    path: "/runs",
    tags: ["Runs"],
    summary: "Start an analysis run",
    description:
      "Accepts a run of a stored profile over completed videos: 202 with status `queued` and sub_state `accepted` (acceptance, not completion). Profile and template versions are resolved (latest when omitted) and frozen in the run's snapshots. Poll GET /runs/{run_id}; read answers at GET /runs/{run_id}/answers.",
    request: {
      body: { required: true, content: { "application/json": { schema: CreateRunBodySchema } } },
    },
    responses: {
      202: {
        description: "The accepted run",
        content: { "application/json": { schema: RunSchema } },
      },
    },
  },
);

/** POST /runs */
export function registerCreateRun(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const known = new Set(Object.keys(CreateRunBodySchema.shape));
    const extra = Object.keys(body).filter((key) => !known.has(key));
    if (extra.length > 0) {
      throw invalidRequest(
        extra.map((key) => ({
          path: key,
          message: INLINE_FIELDS.includes(key)
            ? "inline profiles and templates are not accepted: pass profile_id / report_template_id of stored ones"
            : "is not a known field",
        })),
      );
    }
    if (body.kind === "workflow") {
      if (body.workflow_id === undefined)
        throw invalidRequest([{ path: "workflow_id", message: "is required for a workflow run" }]);
      throw notFound("Workflow", body.workflow_id);
    }
    const errors = [];
    if (body.source_ids === undefined)
      errors.push({ path: "source_ids", message: "is required for an analysis run" });
    if (body.profile_id === undefined)
      errors.push({ path: "profile_id", message: "is required for an analysis run" });
    if (body.workflow_id !== undefined)
      errors.push({ path: "workflow_id", message: "is for workflow runs" });
    if (body.source_snapshot !== undefined)
      errors.push({ path: "source_snapshot", message: "is for workflow runs" });
    if (body.report_template_version !== undefined && body.report_template_id === undefined)
      errors.push({ path: "report_template_version", message: "needs report_template_id" });
    if (body.source_ids && new Set(body.source_ids).size !== body.source_ids.length) {
      errors.push({ path: "source_ids", message: "must not repeat a video" });
    }
    if (errors.length > 0 || body.source_ids === undefined || body.profile_id === undefined)
      throw invalidRequest(errors);
    const run = await createAnalysisRun(c.env, {
      workspaceId: c.var.auth.workspaceId,
      requestId: c.var.requestId,
      sourceIds: body.source_ids,
      profileId: body.profile_id,
      profileVersion: body.profile_version,
      reportTemplateId: body.report_template_id,
      reportTemplateVersion: body.report_template_version,
      formats: [...new Set(body.formats ?? [])],
      executionProfileRef: body.execution_profile_ref ?? DEFAULT_EXECUTION_PROFILE,
      locale: body.locale ?? "en",
      executeNow: body.execute_now ?? true,
    });
    return c.json(presentRun(run), 202);
  });
}
