import { expect } from "vitest";
import type { WorkflowRunDto } from "../../../src/routes/runs/schemas";
import type { FindingDto } from "../../../src/services/presenters/finding";
import { type Client, expectJson } from "../../helpers/harness";
import { waitForRun } from "../../helpers/runs";

/** Rules phrased as requirements, as rulebooks state them; the last one no video shows. */
export const RULES = [
  {
    id: "vests",
    title: "Forklift operators wear high visibility vests",
    description: "Forklift operators must wear high visibility vests.",
    severity: "high",
  },
  {
    id: "fire-exits",
    title: "Fire exits are kept clear",
    description: "The briefing says fire exits must be kept clear.",
  },
  {
    id: "giraffe",
    title: "A giraffe conducts the orchestra",
    description: "A giraffe conducts a symphony orchestra on stage.",
  },
];

/** A rulebook of RULES and a workflow over the videos; returns their ids. */
export async function workflowOver(api: Client, videos: string[]) {
  const rulebook = await expectJson<{ id: string; rule_set_version_id: string }>(
    await api.post("/rulebooks", { name: "Dock safety", content: "Warehouse rules", rules: RULES }),
    201,
  );
  const workflow = await expectJson<{ id: string }>(
    await api.post("/workflows", {
      name: "Dock review",
      playbook: "Judge only what the briefing says and shows.",
      rulebook_id: rulebook.id,
      source_ids: videos,
    }),
    201,
  );
  return { rulebook, workflowId: workflow.id };
}

/** Starts a workflow run (202) and returns it. */
export async function startWorkflowRun(
  api: Client,
  workflowId: string,
  extra: Record<string, unknown> = {},
): Promise<WorkflowRunDto> {
  const run = await expectJson<WorkflowRunDto>(
    await api.post("/runs", { kind: "workflow", workflow_id: workflowId, ...extra }),
    202,
  );
  expect(run.kind).toBe("workflow");
  return run;
}

/** Waits for a workflow run to end. */
export async function waitForWorkflowRun(api: Client, runId: string): Promise<WorkflowRunDto> {
  return (await waitForRun(api, runId)) as unknown as WorkflowRunDto;
}

/** Every finding a query lists, walking all pages at `limit`. */
export async function allFindings(api: Client, query: string, limit = 100) {
  const seen: FindingDto[] = [];
  let cursor: string | null = null;
  do {
    const suffix: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    const page: { data: FindingDto[]; next_cursor: string | null } = await expectJson(
      await api.get(`/findings?limit=${limit}&${query}${suffix}`),
      200,
    );
    seen.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return seen;
}
