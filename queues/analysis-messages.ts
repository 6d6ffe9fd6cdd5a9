import { z } from "zod";
import type { RunAnalysisMessage } from "../src/domain/messages";

/** Analysis queue: what the consumer accepts as a run-analysis message. */
export const RunAnalysisMessageSchema = z.object({
  type: z.literal("run-analysis"),
  run_id: z.string(),
  workspace_id: z.string(),
}) satisfies z.ZodType<RunAnalysisMessage>;
