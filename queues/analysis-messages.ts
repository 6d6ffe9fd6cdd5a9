import { z } from "zod";

/** Analysis queue: execute one run. */
export const RunAnalysisMessageSchema = z.object({
  type: z.literal("run-analysis"),
  run_id: z.string(),
  workspace_id: z.string(),
});
/** An analysis queue message. */
export type RunAnalysisMessage = z.infer<typeof RunAnalysisMessageSchema>;
