import { z } from "@hono/zod-openapi";
import {
  RULE_ID_PATTERN,
  RULE_KINDS,
  RULE_SEVERITIES,
  RULEBOOK_LIMITS,
} from "../../domain/rulebooks";
import { idParam, TimestampSchema } from "../../schemas/common";

const L = RULEBOOK_LIMITS;

/** Why a rule id was refused. */
export const RULE_ID_MESSAGE =
  "must be 1-64 letters, digits, _, -, . or :, starting with a letter or digit";

function notBlank(max: number) {
  return z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);
}

/** The rulebook id path parameter. */
export const RulebookParamsSchema = z.object({
  rulebook_id: idParam("rulebook_id", "rb_01jd3m6t8y0c7x4k2n9q5r1s3v"),
});

/** A rule as a client sends it; the service sets `version`. */
export const RuleInputSchema = z
  .strictObject({
    id: z.string().regex(RULE_ID_PATTERN, RULE_ID_MESSAGE).openapi({
      description: "Unique within the rulebook; findings cite it as `rb_…/<id>@<version>`",
      example: "ppe-hard-hat",
    }),
    title: notBlank(L.titleChars).openapi({
      description: `What the rule requires, 1-${L.titleChars} characters`,
      example: "Hard hats worn in hard-hat areas",
    }),
    description: z
      .string()
      .trim()
      .max(L.descriptionChars, `must be at most ${L.descriptionChars} characters`)
      .default("")
      .openapi({
        description: `How to tell whether it is met, up to ${L.descriptionChars} characters`,
        example: "Every person in an area with overhead hazards wears a hard hat on the head.",
      }),
    severity: z.enum(RULE_SEVERITIES).nullable().default(null).openapi({
      description: "How much a breach matters; carried into the rule's findings",
      example: "high",
    }),
    kind: z.enum(RULE_KINDS).nullable().optional().openapi({
      description:
        "`requirement`: met when the videos show it happen (a briefing stating it is not enough). `hazard`: a problem when the videos show it happen. Absent or null: a title naming a hazard, danger, risk, incident, accident, injury, near miss or violation makes a hazard (reading a hazard as a requirement would report it as met), anything else a requirement",
      example: "requirement",
    }),
  })
  .openapi("RuleInput");

/** A rule list with unique ids; a repeat is named at its own index. */
export const RuleListSchema = z
  .array(RuleInputSchema)
  .max(L.rules, `must hold at most ${L.rules} rules`)
  .superRefine((rules, ctx) => {
    const seen = new Map<string, number>();
    for (const [index, rule] of rules.entries()) {
      const first = seen.get(rule.id);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [index, "id"],
          message: `repeats the id "${rule.id}" of rules[${first}]; rule ids are unique within a rulebook`,
        });
      } else seen.set(rule.id, index);
    }
  })
  .openapi({ description: `The rules in order, at most ${L.rules}; ids unique` });

const NameSchema = notBlank(L.nameChars).openapi({
  description: `1-${L.nameChars} characters; names need not be unique`,
  example: "Loading dock safety",
});
const ContentSchema = z
  .string()
  .max(L.contentChars, `must be at most ${L.contentChars} characters`)
  .openapi({
    description: `Free text about the rulebook (purpose, scope), up to ${L.contentChars} characters`,
    example: "Checks for the loading docks of our warehouses.",
  });

/** POST /rulebooks */
export const CreateRulebookBodySchema = z
  .strictObject({
    name: NameSchema,
    content: ContentSchema.default(""),
    rules: RuleListSchema,
  })
  .openapi("CreateRulebookBody");

/** PATCH /rulebooks/{rulebook_id}: at least one field; `rules` replaces the whole list. */
export const UpdateRulebookBodySchema = z
  .strictObject({
    name: NameSchema.optional(),
    content: ContentSchema.optional(),
    rules: RuleListSchema.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, {
    message: "must change at least one of name, content, rules",
  })
  .openapi("UpdateRulebookBody");

/** A stored rule: what was sent plus the version the service gave it. */
export const RuleSchema = z
  .object({
    id: z.string().openapi({ example: "ppe-hard-hat" }),
    title: z.string(),
    description: z.string(),
    severity: z.enum(RULE_SEVERITIES).nullable(),
    kind: z.enum(RULE_KINDS).openapi({
      description:
        "What the rule states: a `requirement` (its findings say met or not shown) or a `hazard` (its findings say observed or not shown); given, or decided from the title when the rule was written",
      example: "requirement",
    }),
    version: z.number().int().min(1).openapi({
      description: "1 on create; +1 each time this rule's title or description changes",
      example: 1,
    }),
  })
  .openapi("Rule");

/** A rulebook as one key sees it (spec 2.7). */
export const RulebookSchema = z
  .object({
    id: z.string().openapi({ example: "rb_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    name: z.string(),
    content: z.string(),
    rules: z.array(RuleSchema),
    rule_set_version_id: z.string().openapi({
      description:
        "The current rule set, an immutable version: a change of the rules makes a new one; workflows and runs keep the one they were made with",
      example: "rsv_01jd3m6t8y0c7x4k2n9q5r1s3v",
    }),
    is_template: z.boolean().openapi({ description: "Shared templates are read-only" }),
    template_key: z.string().nullable().openapi({ example: "workplace-safety" }),
    can_edit: z.boolean().openapi({ description: "Whether this key may change it" }),
    can_delete: z
      .boolean()
      .openapi({ description: "Whether this key may delete it now (no active workflow run)" }),
    has_active_workflow_run: z.boolean().openapi({
      description: "Whether a workflow run on it is queued or processing (read live)",
    }),
    owner_id: z.string().nullable().openapi({
      description: "The owner it belongs to (null for templates)",
      example: "user_01jd3m6t8y0c7x4k2n9q5r1s3v",
    }),
    created_by: z.string().openapi({ description: "Key id (or `system` for templates)" }),
    updated_by: z.string(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Rulebook");
