import { z } from "@hono/zod-openapi";
import { DEFAULT_EXECUTION_PROFILE, EXECUTION_PROFILE_REFS } from "../../domain/execution-profiles";
import { DEFERRED_START_SECONDS } from "../../services/runs/create-run";
import { LANGUAGE_PATTERN } from "../report-templates/schemas";

const INLINE_REFUSAL =
  "inline profiles and templates are not accepted: pass profile_id / report_template_id of stored ones";

/** A field a run kind needs: left out, it is named with what needs it. */
function requiredFor(kind: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? `is required for ${kind}` : undefined;
}

/** A field that would carry an inline profile or template; POST /runs takes stored ones only. */
function inlineField() {
  return z
    .unknown()
    .refine(() => false, INLINE_REFUSAL)
    .optional()
    .openapi({ description: "Not accepted: runs take stored profiles and templates only" });
}

/** `kind: "analysis"` (also when `kind` is left out): a stored profile over completed videos. */
export const AnalysisRunBodySchema = z
  .strictObject({
    kind: z
      .literal("analysis")
      .default("analysis")
      .openapi({ description: "`analysis`, the default" }),
    source_ids: z
      .array(z.string().min(1).max(128), { error: requiredFor("an analysis run") })
      .min(1)
      .max(50)
      .refine((ids) => new Set(ids).size === ids.length, "must not repeat a video")
      .openapi({ description: "Completed videos of the workspace (1-50, no repeats)" }),
    profile_id: z
      .string({ error: requiredFor("an analysis run") })
      .min(1)
      .max(128)
      .openapi({ description: "A stored profile; inline profiles are not accepted" }),
    profile_version: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({ description: "Omit for the latest, which the run records" }),
    report_template_id: z.string().min(1).max(128).optional(),
    report_template_version: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({ description: "Needs report_template_id; omit for the latest" }),
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
    profile: inlineField(),
    instructions: inlineField(),
    answer_specs: inlineField(),
    report_template: inlineField(),
    blocks: inlineField(),
  })
  .refine((body) => body.report_template_version === undefined || body.report_template_id, {
    path: ["report_template_version"],
    message: "needs report_template_id",
  })
  .openapi("AnalysisRunRequest");

/** `kind: "workflow"`: a run of a visible workflow. */
export const WorkflowRunBodySchema = z
  .strictObject({
    kind: z.literal("workflow").openapi({ description: "`workflow`" }),
    workflow_id: z
      .string({ error: requiredFor("a workflow run") })
      .min(1)
      .max(128)
      .openapi({ description: "A visible workflow" }),
    source_snapshot: z
      .strictObject({
        source_ids: z
          .array(z.string().min(1).max(128))
          .min(1)
          .max(50)
          .refine((ids) => new Set(ids).size === ids.length, "must not repeat a video"),
      })
      .optional()
      .openapi({
        description:
          "The videos to check (completed videos of the workspace, 1-50); the workflow's own when left out",
      }),
    execution_profile_ref: z
      .enum(EXECUTION_PROFILE_REFS)
      .optional()
      .openapi({ description: `Processing budget; default ${DEFAULT_EXECUTION_PROFILE}` }),
    locale: z.string().regex(LANGUAGE_PATTERN).optional().openapi({ example: "en" }),
    execute_now: z
      .boolean()
      .optional()
      .openapi({
        description: `false defers the start by ${DEFERRED_START_SECONDS} s; default true`,
      }),
  })
  .openapi("WorkflowRunRequest");

/** The body of POST /runs, by `kind`; each kind names the fields it needs. */
export const CreateRunBodySchema = z
  .discriminatedUnion("kind", [AnalysisRunBodySchema, WorkflowRunBodySchema], {
    error: (issue) =>
      issue.code === "invalid_union" ? 'must be "analysis" or "workflow"' : undefined,
  })
  .openapi("CreateRunRequest", {
    // `kind` may be left out (analysis), so the document carries no `discriminator`
    // (withoutOptionalDiscriminators); the `kind` values keep the branches apart.
    description: "An analysis run (`kind` `analysis` or left out) or a workflow run",
  });
