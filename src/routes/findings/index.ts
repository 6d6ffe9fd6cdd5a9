import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { registerGetFinding } from "./get-finding";
import { registerListFindings } from "./list-findings";
import { registerReviewFinding } from "./review-finding";

/** Registers the finding routes (permission VIEW_INSIGHTS, the spec's Findings section). */
export function registerFindingRoutes(app: OpenAPIHono<HonoEnv>) {
  registerListFindings(app);
  registerGetFinding(app);
  registerReviewFinding(app);
}
