import type { OpenAPIHono } from "@hono/zod-openapi";
import { answerReferences, findRun } from "../../db/repos/runs";
import { notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { presentRun } from "../../services/presenters/run";
import { alphaRoute } from "../define";
import { RunIdParamsSchema, RunSchema } from "./schemas";

const route = alphaRoute(
  { permission: "RUN_WORKFLOWS" },
  {
    method: "post",
    operationId: "cancelRun",
    path: "/runs/{run_id}/cancel",
    tags: ["Runs"],
    summary: "Cancel a run",
    description:
      "A queued run is canceled at once; a processing run is asked to stop and stops at its next step (`cancel_requested` shows it); a final run is returned unchanged. Cancellation is not guaranteed: poll until the status is final.",
    request: { params: RunIdParamsSchema },
    responses: {
      200: { description: "The run", content: { "application/json": { schema: RunSchema } } },
    },
  },
);

/** POST /runs/{run_id}/cancel */
export function registerCancelRun(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { run_id } = c.req.valid("param");
    const db = c.var.deps.db;
    const { workspaceId } = c.var.auth;
    if (!(await findRun(db, workspaceId, run_id))) throw notFound("Run", run_id);
    await c.env.RUNS.getByName(run_id).cancel();
    const run = await findRun(db, workspaceId, run_id);
    if (!run) throw notFound("Run", run_id);
    const answers = run.status === "completed" ? await answerReferences(db, run.id) : [];
    return c.json(presentRun(run, { answers }), 200);
  });
}
