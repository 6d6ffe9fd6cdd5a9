import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { findRun, listAnswers } from "../../db/repos/runs";
import { deletedVideoIds } from "../../db/repos/video-erasure";
import { ANSWER_TYPES, RESULT_STATES } from "../../domain/answers";
import { notFound } from "../../errors/api-error";
import { listScope, pageQuery, toPage } from "../../lib/pagination";
import type { HonoEnv } from "../../middleware/hono-env";
import { RedactedSchema, type SameShape } from "../../schemas/common";
import { PageQuerySchema, pageSchema } from "../../schemas/page";
import { REDACTED_TEXT } from "../../services/deletion/redact";
import { EvidenceLinker } from "../../services/media/evidence-urls";
import { type AnswerDto, presentAnswer } from "../../services/presenters/answer";
import { alphaRoute } from "../define";
import { RunIdParamsSchema } from "./schemas";

const EvidenceRefSchema = z
  .object({
    evidence_id: z.string(),
    video_id: z.string(),
    segment_id: z.string(),
    kind: z.enum(["transcript", "ocr", "scene", "thumbnail", "metadata"]),
    start_time: z.number().openapi({ description: "Seconds" }),
    end_time: z.number(),
    text: z.string().openapi({
      description: `The words or description the span holds; \`${REDACTED_TEXT}\` when redacted`,
    }),
    clip_url: z.string().optional().openapi({
      description:
        "Signed URL of the video playing the span (#t=start,end), valid at least 1 hour; absent when redacted",
    }),
    redacted: RedactedSchema.optional(),
  })
  .openapi("EvidenceRef");

const AttributeSchema = z.object({
  key: z.string(),
  label: z.string(),
  unit: z.string().optional(),
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
  evidence: z.array(EvidenceRefSchema).optional(),
});

/** An answer (the spec's Answer section, AlphaAnswerDto). */
export const AnswerSchema = z
  .object({
    id: z.string().openapi({ example: "ans_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    key: z.string(),
    type: z.enum(ANSWER_TYPES),
    result_state: z.enum(RESULT_STATES),
    coverage: z.object({ state: z.string(), scope: z.string() }),
    event_count: z.number().int().min(0),
    evidence_count: z.number().int().min(0),
    answer_payload: z.object({
      summary: z.string(),
      value: z.union([z.string(), z.number(), z.boolean()]).optional(),
      unit: z.string().optional(),
      items: z.array(
        z.object({
          item_id: z.string(),
          label: z.string(),
          result_state: z.enum(RESULT_STATES),
          attributes: z.array(AttributeSchema),
          evidence: z.array(EvidenceRefSchema),
          value: z.union([z.string(), z.number(), z.boolean()]).optional(),
          redacted: RedactedSchema.optional().openapi({
            description:
              "The item stands for or cites a deleted video: its label and text values read as the redaction marker",
          }),
        }),
      ),
      evidence_summary: z.object({
        contributing_count: z.number().int().min(0),
        drill_down_path: z.string(),
        precision: z.enum(["exact", "limited", "unknown"]),
        representative: z.array(EvidenceRefSchema),
      }),
      redacted: RedactedSchema.optional().openapi({
        description:
          "The answer cites a deleted video: its summary and a text value read as the redaction marker",
      }),
    }),
    provenance: z.record(z.string(), z.unknown()),
    reason_code: z.string().optional(),
  })
  .openapi("Answer");

/** Fails to compile when the presented answer no longer fits the documented schema. */
export const ANSWER_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof AnswerSchema>,
  AnswerDto
> = true;

const route = alphaRoute(
  { permission: "VIEW_INSIGHTS" },
  {
    method: "get",
    operationId: "listRunAnswers",
    path: "/runs/{run_id}/answers",
    tags: ["Runs"],
    summary: "Read a run's answers",
    description:
      "The answers of a completed run, one per answer spec, in profile order (empty until the run completes).",
    request: { params: RunIdParamsSchema, query: PageQuerySchema },
    responses: {
      200: {
        description: "A page of answers",
        content: { "application/json": { schema: pageSchema(AnswerSchema, "AnswerPage") } },
      },
    },
  },
);

/** GET /runs/{run_id}/answers */
export function registerListAnswers(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const { run_id } = c.req.valid("param");
    const query = c.req.valid("query");
    const db = c.var.deps.db;
    const run = await findRun(db, c.var.auth.workspaceId, run_id);
    if (!run) throw notFound("Run", run_id);
    const list = listScope(c.var.deps.secrets.signing(), "answers", run.id);
    const page = await pageQuery(list, query);
    const rows = run.status === "completed" ? await listAnswers(db, run.id, page) : [];
    const linker = new EvidenceLinker(c.var.ports, new URL(c.req.url).origin);
    const deleted = await deletedVideoIds(db, run.workspaceId, run.sourceIds);
    const envelope = await toPage(
      list,
      rows,
      page.limit,
      (row) => [row.position],
      (row) => row,
    );
    return c.json(
      {
        ...envelope,
        data: await Promise.all(envelope.data.map((row) => presentAnswer(row, linker, deleted))),
      },
      200,
    );
  });
}
