import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { WorkflowRow } from "../../../src/db/repos/workflows";
import { WorkflowSchema } from "../../../src/routes/workflows/schemas";
import type { SameShape } from "../../../src/schemas/common";

import { presentWorkflow, type WorkflowResource } from "../../../src/services/presenters/workflow";

// The schema documents what the presenter writes: the types must agree both ways (this fails
// to compile when they drift), and a presented workflow must parse to itself.
const WORKFLOW_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof WorkflowSchema>,
  WorkflowResource
> = true;
const row: WorkflowRow = {
  id: "wf_01",
  workspaceId: "ws_01",
  name: "Dock review",
  playbook: "Check the loading dock.",
  rulebookId: "rb_01",
  ruleSetVersionId: "rsv_01",
  sourceIds: ["vid_01", "vid_02"],
  outputModes: ["findings"],
  status: "active",
  templateType: "custom",
  latestRunId: "run_01",
  createdBy: "key_01",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-02T00:00:00.000Z",
};

describe("a presented workflow and its documented schema", () => {
  it("parses to itself, before and after its first run", () => {
    expect([WORKFLOW_SCHEMA_MATCHES_PRESENTER]).not.toContain(false);
    for (const latestRunId of ["run_01", null]) {
      const dto = presentWorkflow({ ...row, latestRunId });
      expect(WorkflowSchema.parse(dto)).toEqual(dto);
    }
  });
});
