import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { D1_LIMITS } from "../../../src/db/limits";
import { ownerOfKey } from "../../../src/domain/rulebooks";
import { createPorts } from "../../../src/ports";
import type { WorkflowRunDto } from "../../../src/routes/runs/schemas";
import { createDeps } from "../../../src/services/deps";
import { createRulebooks } from "../../../src/services/rulebooks/rulebooks";
import { executeRun } from "../../../src/services/runs/execute-run";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { outbox, uploadFixture, waitForFinal } from "../../helpers/processing";
import { allFindings, RULES, startWorkflowRun, waitForWorkflowRun, workflowOver } from "./helpers";

let api: Client;
let workspaceId: string;
let keyId: string;
let video: string;

beforeAll(async () => {
  ({ api, workspaceId, keyId } = await newTenant());
  video = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
}, 90_000);

async function snapshots(runId: string) {
  const { results } = await env.DB.prepare(
    "SELECT kind, content FROM run_snapshots WHERE run_id = ? ORDER BY kind",
  )
    .bind(runId)
    .all<{ kind: string; content: string }>();
  return new Map(results.map((row) => [row.kind, row.content]));
}

describe("what a workflow run stores", () => {
  it("runs a rule set larger than one D1 value, naming its version instead of copying it", async () => {
    // 240 rules of ~18 KB each: ~4.3 MB of rules, twice what one D1 value may hold. The API
    // takes 1 MiB bodies, so the rule set is written the way a CSV import writes one.
    const rules = Array.from({ length: 240 }, (_, i) => ({
      id: `rule-${i}`,
      title: `Rule ${i} is kept`,
      description: "é".repeat(9_000),
      severity: null,
    }));
    const deps = createDeps(env, createPorts(env));
    const auth = { keyId, workspaceId, ownerId: ownerOfKey(keyId), permissions: new Set([]) };
    const [rulebook] = await createRulebooks(deps, auth, [{ name: "Big", content: "", rules }]);
    const rulesBytes = new TextEncoder().encode(JSON.stringify(rules)).length;
    expect(rulesBytes).toBeGreaterThan(2 * D1_LIMITS.valueBytes);
    const workflow = await expectJson<{ id: string }>(
      await api.post("/workflows", {
        name: "Big review",
        playbook: "Judge only what the briefing says.",
        rulebook_id: rulebook?.id,
        source_ids: [video],
      }),
      201,
    );
    const run = await waitForWorkflowRun(api, (await startWorkflowRun(api, workflow.id)).id);
    expect(run.status, JSON.stringify(run)).toBe("completed");
    expect(await allFindings(api, `run_id=${run.id}`)).toHaveLength(240);

    const stored = await snapshots(run.id);
    expect(JSON.parse(stored.get("profile") ?? "{}")).toEqual({
      workflow_id: workflow.id,
      rulebook_id: rulebook?.id,
      rule_set_version_id: rulebook?.rule_set_version_id,
      playbook: "Judge only what the briefing says.",
    });
    // The outcome counts the findings and links them; it does not list them.
    expect(JSON.parse(stored.get("output") ?? "{}")).toMatchObject({
      findings: { count: 240, path: `/api/v1alpha1/findings?run_id=${run.id}` },
      summary: run.workflow.summary,
    });
    for (const content of stored.values()) expect(content.length).toBeLessThan(4_000);

    // run.completed is the run as GET shows it: counts and links, whatever the rule count.
    const completed = (await outbox(workspaceId)).find(
      (e) => e.type === "run.completed" && JSON.stringify(e.data).includes(run.id),
    );
    const shown = await expectJson<WorkflowRunDto>(await api.get(`/runs/${run.id}`), 200);
    expect(completed?.data).toEqual({ run: shown });
    expect(JSON.stringify(completed?.data).length).toBeLessThan(2_000);
  }, 120_000);

  it("checks the rules admitted with the run when the rulebook is edited before it executes", async () => {
    const { workflowId, rulebook } = await workflowOver(api, [video]);
    const queued = await startWorkflowRun(api, workflowId, { execute_now: false });
    await expectJson(
      await api.request("PATCH", `/rulebooks/${rulebook.id}`, {
        body: { rules: [{ id: "later", title: "A rule written after the run was admitted" }] },
      }),
      200,
    );
    const deps = createDeps(env, createPorts(env));
    await executeRun(deps, { type: "run-analysis", run_id: queued.id, workspace_id: workspaceId });
    const run = await waitForWorkflowRun(api, queued.id);
    expect(run.workflow.rule_set_version_id).toBe(rulebook.rule_set_version_id);
    const findings = await allFindings(api, `run_id=${run.id}`);
    expect(findings.map((f) => f.rule_id).sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  it("keeps its rulebook in its own column and shows the same run in the list and by id", async () => {
    const { workflowId, rulebook } = await workflowOver(api, [video]);
    const run = await startWorkflowRun(api, workflowId, { execute_now: false });
    const row = await env.DB.prepare(
      "SELECT profile_id, profile_version, rulebook_id, rule_set_version_id FROM runs WHERE id = ?",
    )
      .bind(run.id)
      .first();
    expect(row).toEqual({
      profile_id: null,
      profile_version: null,
      rulebook_id: rulebook.id,
      rule_set_version_id: rulebook.rule_set_version_id,
    });
    expect(run.workflow.rulebook_id).toBe(rulebook.id);
    const listed = await expectJson<{ data: WorkflowRunDto[] }>(
      await api.get(`/runs?video_id=${video}&status=queued`),
      200,
    );
    const byId = await expectJson<WorkflowRunDto>(await api.get(`/runs/${run.id}`), 200);
    expect(listed.data.find((r) => r.id === run.id)).toEqual(byId);
    expect(byId).toEqual(run);
  });

  it("refuses any change to a rule set version or its rules", async () => {
    const { rulebook } = await workflowOver(api, [video]);
    const id = rulebook.rule_set_version_id;
    for (const statement of [
      "UPDATE rules SET title = 'changed' WHERE rule_set_version_id = ?",
      "DELETE FROM rules WHERE rule_set_version_id = ?",
      "UPDATE rule_set_versions SET rule_count = 0 WHERE id = ?",
      "DELETE FROM rule_set_versions WHERE id = ?",
    ]) {
      await expect(env.DB.prepare(statement).bind(id).run(), statement).rejects.toThrow(
        /immutable/,
      );
    }
    const shown = await expectJson<{ rules: { id: string }[] }>(
      await api.get(`/rulebooks/${rulebook.id}`),
      200,
    );
    expect(shown.rules.map((r) => r.id)).toEqual(RULES.map((r) => r.id));
  });
});
