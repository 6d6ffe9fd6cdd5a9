import { z } from "@hono/zod-openapi";
import { WORKFLOW_LIMITS, WORKFLOW_OUTPUT_MODES, WORKFLOW_STATUSES } from "../../domain/workflows";
import { idParam, TimestampSchema } from "../../schemas/common";

const L = WORKFLOW_LIMITS;
const TOKEN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The workflow id path parameter. */
export const WorkflowParamsSchema = z.object({
  workflow_id: idParam("workflow_id", "wf_01jd3m6t8y0c7x4k2n9q5r1s3v"),
});

/** POST /workflows */
export const CreateWorkflowBodySchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(L.nameChars, `must be at most ${L.nameChars} characters`)
      .openapi({ example: "Dock camera review" }),
    playbook: z
      .string()
      .max(L.playbookChars, `must be at most ${L.playbookChars} characters`)
      .default("")
      .openapi({
        description: "Instructions for every run of the workflow (how to judge the rules)",
        example: "Judge only what the camera shows; people in the background count.",
      }),
    rulebook_id: z.string().min(1).max(128).openapi({
      description: "A rulebook of the key's owner or a shared template; unreachable answers 404",
      example: "rb_01jd3m6t8y0c7x4k2n9q5r1s3v",
    }),
    source_ids: z
      .array(z.string().min(1).max(128))
      .min(1, "must name at least one video")
      .max(L.sources, `must name at most ${L.sources} videos`)
      .superRefine((ids, ctx) => {
        ids.forEach((id, index) => {
          if (ids.indexOf(id) !== index) {
            ctx.addIssue({ code: "custom", path: [index], message: `repeats "${id}"` });
          }
        });
      })
      .openapi({
        description: `1-${L.sources} distinct completed videos of the workspace (unknown: 404, not completed: 409)`,
        example: ["vid_01jd3m6t8y0c7x4k2n9q5r1s3v"],
      }),
    output_modes: z
      .array(z.enum(WORKFLOW_OUTPUT_MODES))
      .min(1)
      .superRefine((modes, ctx) => {
        modes.forEach((mode, index) => {
          if (modes.indexOf(mode) !== index) {
            ctx.addIssue({ code: "custom", path: [index], message: `repeats "${mode}"` });
          }
        });
      })
      .default(["findings", "json", "markdown"])
      .openapi({
        description:
          "What a run produces: `findings` (always, whether listed or not) and reports in `json` and/or `markdown`. Default: all three",
      }),
    status: z.enum(WORKFLOW_STATUSES).default("draft").openapi({
      description: "A lifecycle label: `draft` (default), `active`, `archived`",
    }),
    template_type: z
      .string()
      .regex(TOKEN, "must be 1-64 letters, digits, _ or -, starting with a letter")
      .default("custom")
      .openapi({
        description:
          "What kind of review this is, a word of your own (stored as given); default `custom`",
        example: "safety_audit",
      }),
  })
  .openapi("CreateWorkflowBody");

/** A workflow (the spec's Workflow section). */
export const WorkflowSchema = z
  .object({
    id: z.string().openapi({ example: "wf_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    name: z.string(),
    playbook: z.string(),
    rulebook_id: z.string(),
    rule_set_version_id: z.string().openapi({
      description:
        "The rulebook's rule set when the workflow was made, frozen: editing the rulebook later changes nothing here",
    }),
    source_ids: z.array(z.string()),
    output_modes: z.array(z.enum(WORKFLOW_OUTPUT_MODES)),
    status: z.enum(WORKFLOW_STATUSES),
    template_type: z.string(),
    latest_run_id: z
      .string()
      .nullable()
      .openapi({ description: "The newest run of it; null before the first" }),
    created_by: z.string().openapi({ description: "The key that made it" }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Workflow");
