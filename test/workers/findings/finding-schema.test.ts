import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { FindingRow } from "../../../src/db/repos/findings";
import { FindingSchema } from "../../../src/routes/findings/schemas";
import type { SameShape } from "../../../src/schemas/common";

import { type FindingDto, presentFinding } from "../../../src/services/presenters/finding";

// The schema documents what the presenter writes: the types must agree both ways (this fails
// to compile when they drift), and a presented finding must parse to itself.
const FINDING_SCHEMA_MATCHES_PRESENTER: SameShape<z.infer<typeof FindingSchema>, FindingDto> = true;
const row: FindingRow = {
  id: "finding_01",
  workspaceId: "ws_01",
  runId: "run_01",
  workflowId: "wf_01",
  videoId: "vid_01",
  ruleId: "hard-hats",
  ruleReference: "rb_01/hard-hats@2",
  title: "Hard hats",
  description: "A worker on the dock wears no hard hat.",
  type: "requirement_not_shown",
  severity: "high",
  status: "confirmed",
  resultState: "not_found",
  summary: "No hard hat at 00:12.",
  reasonCode: null,
  evidence: [
    {
      id: "ev_01",
      video_id: "vid_01",
      segment_id: "seg_01",
      kind: "scene",
      start_time: 12,
      end_time: 15,
      text: "a worker without a hard hat",
    },
  ],
  metadata: { extraction_method: "answer_engine", limitations: [], quality: "exact" },
  reviewNote: "seen on site",
  reviewedAt: "2026-01-02T00:00:00.000Z",
  reviewedBy: "key_01",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-02T00:00:00.000Z",
};

describe("a presented finding and its documented schema", () => {
  it("parses to itself with every optional field set, as lists show it", async () => {
    expect([FINDING_SCHEMA_MATCHES_PRESENTER]).not.toContain(false);
    const dto = await presentFinding(row, null, new Set());
    expect(dto.review_note).toBe("seen on site");
    expect(FindingSchema.parse(dto)).toEqual(dto);
  });

  it("parses to itself when its video was deleted", async () => {
    const dto = await presentFinding(row, null, new Set([row.videoId]));
    expect(dto.redacted).toBe("source_deleted");
    expect(FindingSchema.parse(dto)).toEqual(dto);
  });
});
