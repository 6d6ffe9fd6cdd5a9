import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { usageReport } from "../../services/usage/report";
import { alphaRoute } from "../define";
import { UsageQuerySchema, UsageReportSchema } from "./schemas";

const route = alphaRoute(
  { permission: "VIEW_USAGE" },
  {
    method: "get",
    operationId: "getUsage",
    path: "/usage",
    tags: ["Usage"],
    summary: "Get the workspace's usage",
    description:
      "What the workspace used from `from` to `to` (UTC days, both included), per day or per month: videos uploaded, bytes stored (at the end of each period and at its peak), seconds processed, heard and seen, model calls and tokens by model, searches, runs, findings and webhook deliveries. Every counter is added to with the change that makes its thing happen, so retries never count twice; deleting a video leaves what it used counted.",
    request: { query: UsageQuerySchema },
    responses: {
      200: {
        description: "The usage, one entry per period and totals",
        content: { "application/json": { schema: UsageReportSchema } },
      },
    },
  },
);

/** GET /usage */
export function registerGetUsage(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    return c.json(await usageReport(c.var.deps, c.var.auth.workspaceId, query), 200);
  });
}
