import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Database } from "../../db/client";
import type { RunRow } from "../../db/repos/runs";
import { DEFAULT_EXECUTION_PROFILE } from "../../domain/execution-profiles";
import type { HonoEnv } from "../../middleware/hono-env";
import { runNotices } from "../../services/media/understood";
import { presentRun } from "../../services/presenters/run";
import { createAnalysisRun } from "../../services/runs/create-run";
import { createWorkflowRun } from "../../services/runs/create-workflow-run";
import { alphaRoute } from "../define";
import { CreateRunBodySchema } from "./create-run-body";
import { RunSchema } from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS", errors: [409] },
  {
    method: "post",
    operationId: "createRun",
    path: "/runs",
    tags: ["Runs"],
    summary: "Start an analysis or workflow run",
    description:
      "Accepts a run of a stored profile over completed videos: 202 with status `queued` and sub_state `accepted` (acceptance, not completion). Profile and template versions are resolved (latest when omitted) and frozen in the run's snapshots. Poll GET /runs/{run_id}; read answers at GET /runs/{run_id}/answers. A workflow run (`kind: \"workflow\"`) checks every rule of the workflow's frozen rule set against every video (the workflow's, or `source_snapshot.source_ids`); read its findings at GET /findings?run_id=.",
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

function noticesOf(db: Database, run: RunRow) {
  return runNotices(db, run.workspaceId, run.sourceIds);
}

/** POST /runs */
export function registerCreateRun(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    if (body.kind === "workflow") {
      const run = await createWorkflowRun(c.var.deps, {
        workspaceId: c.var.auth.workspaceId,
        requestId: c.var.requestId,
        workflowId: body.workflow_id,
        sourceIds: body.source_snapshot?.source_ids,
        executionProfileRef: body.execution_profile_ref ?? DEFAULT_EXECUTION_PROFILE,
        locale: body.locale ?? "en",
        executeNow: body.execute_now ?? true,
      });
      return c.json(presentRun(run, { notices: await noticesOf(c.var.deps.db, run) }), 202);
    }
    const run = await createAnalysisRun(c.var.deps, {
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
    return c.json(presentRun(run, { notices: await noticesOf(c.var.deps.db, run) }), 202);
  });
}
