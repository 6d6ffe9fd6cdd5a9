import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { registerCancelRun } from "./cancel-run";
import { registerCreateRun } from "./create-run";
import { registerGetRun } from "./get-run";
import { registerListAnswers } from "./list-answers";
import { registerListRuns } from "./list-runs";

/** Registers the run routes (the spec's Runs section). */
export function registerRunRoutes(app: OpenAPIHono<HonoEnv>) {
  registerCreateRun(app);
  registerListRuns(app);
  registerGetRun(app);
  registerCancelRun(app);
  registerListAnswers(app);
}
