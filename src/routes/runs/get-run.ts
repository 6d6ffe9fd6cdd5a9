import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import { answerReferences, findRun, findSnapshots } from "../../db/repos/runs";
import { notFound } from "../../errors/api-error";
import type { HonoEnv } from "../../middleware/hono-env";
import { expandQuerySchema, parseExpand } from "../../schemas/expand";
import { runNotices } from "../../services/media/understood";
import { presentRun } from "../../services/presenters/run";
import { alphaRoute } from "../define";
import { RunIdParamsSchema, RunSchema } from "./schemas";

const EXPANDABLE = ["snapshots", "provenance"] as const;

const route = alphaRoute(
  { permission: "VIEW_INSIGHTS" },
  {
    method: "get",
    operationId: "getRun",
    path: "/runs/{run_id}",
    tags: ["Runs"],
    summary: "Get a run",
    description:
      "The run; poll it until status is final. `expand[]=snapshots` adds the immutable snapshots, `expand[]=provenance` the engine and usage.",
    request: {
      params: RunIdParamsSchema,
      query: z.object({ "expand[]": expandQuerySchema(EXPANDABLE) }),
    },
    responses: {
      200: { description: "The run", content: { "application/json": { schema: RunSchema } } },
    },
  },
);

/** GET /runs/{run_id} */
export function registerGetRun(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { run_id } = c.req.valid("param");
    const expand = parseExpand(c.req.url, EXPANDABLE);
    const db = c.var.deps.db;
    const run = await findRun(db, c.var.auth.workspaceId, run_id);
    if (!run) throw notFound("Run", run_id);
    const answers = run.status === "completed" ? await answerReferences(db, run.id) : [];
    const snapshots = expand.has("snapshots") ? await findSnapshots(db, run.id) : undefined;
    const notices = await runNotices(db, run.workspaceId, run.sourceIds);
    return c.json(
      presentRun(run, {
        answers,
        notices,
        ...(snapshots ? { snapshots } : {}),
        provenance: expand.has("provenance"),
      }),
      200,
    );
  });
}
