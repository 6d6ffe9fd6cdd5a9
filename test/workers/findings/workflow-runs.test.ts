import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createPorts } from "../../../src/ports";
import { createDeps } from "../../../src/services/deps";
import type { FindingDto } from "../../../src/services/presenters/finding";
import { executeRun } from "../../../src/services/runs/execute-run";
import {
  type Client,
  client,
  createKey,
  expectJson,
  expectProblem,
  newTenant,
} from "../../helpers/harness";
import { outbox, uploadFixture, waitForFinal } from "../../helpers/processing";
import { allFindings, RULES, startWorkflowRun, waitForWorkflowRun, workflowOver } from "./helpers";

let api: Client;
let workspaceId: string;
let videos: string[];
let workflowId: string;
let rulebookId: string;
let runId: string;

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant());
  videos = [];
  for (const name of ["talk.mp4", "silent.mp4"] as const)
    videos.push((await waitForFinal(api, (await uploadFixture(api, name)).id)).id);
  const made = await workflowOver(api, videos);
  workflowId = made.workflowId;
  rulebookId = made.rulebook.id;
  runId = (await startWorkflowRun(api, workflowId)).id;
  await waitForWorkflowRun(api, runId);
}, 90_000);

function findingCount(id: string): Promise<number> {
  return env.DB.prepare("SELECT count(*) AS n FROM findings WHERE run_id = ?")
    .bind(id)
    .first<number>("n")
    .then((n) => n ?? 0);
}

describe("workflow runs", () => {
  it("completes with one truthful finding per rule and video, a summary and the workflow detail", async () => {
    const run = await waitForWorkflowRun(api, runId);
    expect(run).toMatchObject({
      kind: "workflow",
      status: "completed",
      workflow: {
        workflow_id: workflowId,
        case_id: runId,
        rulebook_id: rulebookId,
        sub_state: "completed",
        source_snapshot: { source_ids: videos },
      },
    });
    expect(run).not.toHaveProperty("analysis");
    const findings = await allFindings(api, `run_id=${runId}`);
    expect(findings).toHaveLength(RULES.length * videos.length);
    const pairs = findings.map((f) => `${f.rule_id}|${f.video_id}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    for (const finding of findings) {
      const full = await expectJson<FindingDto>(await api.get(`/findings/${finding.id}`), 200);
      expect(full.evidence.map((e) => e.id)).toEqual(finding.evidence_ids);
      expect(full.rule_reference).toBe(`${rulebookId}/${full.rule_id}@1`);
      expect(full.status).toBe("open");
      if (full.result_state === "found") {
        // found stands only on cited spans inside the same video.
        expect(full.evidence.length).toBeGreaterThan(0);
        for (const span of full.evidence) {
          expect(span.video_id).toBe(full.video_id);
          expect(span.clip_url).toContain(`#t=${span.start_time},${span.end_time}`);
        }
        expect(full.type).toBe("requirement_met");
      } else {
        expect(full.type).not.toBe("requirement_met");
      }
    }
    // No video shows a giraffe, and the silent video shows nothing said at all.
    for (const f of findings.filter((f) => f.rule_id === "giraffe" || f.video_id === videos[1]))
      expect(f.result_state).not.toBe("found");
    const count = (s: string) => findings.filter((f) => f.result_state === s).length;
    const said = (
      [
        ["found", "found"],
        ["not_found", "not found"],
        ["uncertain", "uncertain"],
        ["not_checked", "not checked"],
      ] as const
    )
      .filter(([state]) => count(state) > 0)
      .map(([state, words]) => `${count(state)} ${words}`);
    expect(run.workflow.summary).toBe(`${said.join(", ")} over 2 videos`);
    const workflow = await expectJson<{ latest_run_id: string }>(
      await api.get(`/workflows/${workflowId}`),
      200,
    );
    expect(workflow.latest_run_id).toBe(runId);
    const events = (await outbox(workspaceId)).filter((e) => e.type === "run.completed");
    expect(events.some((e) => JSON.stringify(e).includes(runId))).toBe(true);
  });

  it("completes with its report (JSON and Markdown) named as report_id and by run.completed", async () => {
    // The report is committed with the completion: a completed run already names it.
    const reportId = (await waitForWorkflowRun(api, runId)).workflow.report_id;
    expect(reportId).toMatch(/^rep_/);
    const reports = await expectJson<{ data: { id: string; format: string }[] }>(
      await api.get(`/reports?run_id=${runId}`),
      200,
    );
    expect(reports.data.map((r) => r.format).sort()).toEqual(["json", "markdown"]);
    expect(reports.data.find((r) => r.format === "json")?.id).toBe(reportId);
    const markdown = await api.get(`/reports/${reportId}`);
    expect(markdown.status).toBe(200);
    const events = await outbox(workspaceId);
    const completed = events.filter(
      (e) => e.type === "run.completed" && JSON.stringify(e).includes(runId),
    );
    expect(completed).toHaveLength(1);
    expect(JSON.stringify(completed[0])).toContain(`"report_id":"${reportId}"`);
    const created = events.filter(
      (e) => e.type === "report.created" && JSON.stringify(e).includes(runId),
    );
    expect(created).toHaveLength(2);
  });

  it("filters by video and result state, and pages over each finding once", async () => {
    const all = await allFindings(api, `run_id=${runId}`);
    const byVideo = await allFindings(api, `video_id=${videos[0]}`);
    expect(byVideo.map((f) => f.id).sort()).toEqual(
      all
        .filter((f) => f.video_id === videos[0])
        .map((f) => f.id)
        .sort(),
    );
    for (const state of ["found", "not_found", "uncertain", "not_checked"]) {
      const listed = await allFindings(api, `run_id=${runId}&result_state=${state}`);
      expect(listed.every((f) => f.result_state === state)).toBe(true);
      expect(listed.length).toBe(all.filter((f) => f.result_state === state).length);
    }
    expect(all.map((f) => f.id)).toEqual([...all.map((f) => f.id)].sort().reverse());
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 7 }), async (limit) => {
        const paged = await allFindings(api, `run_id=${runId}`, limit);
        expect(paged.map((f) => f.id)).toEqual(all.map((f) => f.id));
      }),
      { numRuns: 6 },
    );
    await expectProblem(await api.get("/findings?result_state=pass"), 400, "invalid-request");
  });

  it("records a review without touching the result state, and replays it by Idempotency-Key", async () => {
    const [finding] = await allFindings(api, `run_id=${runId}&video_id=${videos[0]}`);
    if (!finding) throw new Error("no finding");
    const headers = { "Idempotency-Key": `review-${finding.id}` };
    const body = { status: "dismissed", note: "Not our site" };
    const reviewed = await expectJson<FindingDto>(
      await api.post(`/findings/${finding.id}/review`, body, headers),
      200,
    );
    expect(reviewed).toMatchObject({
      status: "dismissed",
      review_note: "Not our site",
      result_state: finding.result_state,
    });
    expect(reviewed.reviewed_at).toBeDefined();
    expect(reviewed.reviewed_by).toMatch(/^key_/);
    const replay = await api.post(`/findings/${finding.id}/review`, body, headers);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await expectJson(await api.get(`/findings/${finding.id}`), 200)).toMatchObject({
      status: "dismissed",
      result_state: finding.result_state,
    });
    const bad = await expectProblem(
      await api.post(`/findings/${finding.id}/review`, { status: "passed" }),
      400,
      "invalid-request",
    );
    expect(bad.errors?.map((e) => e.path)).toContain("status");
  });

  it("makes no second set of findings when the queue delivers the run again", async () => {
    const deps = createDeps(env, createPorts(env));
    await executeRun(deps, { type: "run-analysis", run_id: runId, workspace_id: workspaceId });
    expect(await findingCount(runId)).toBe(RULES.length * videos.length);
    const reports = await expectJson<{ data: unknown[] }>(
      await api.get(`/reports?run_id=${runId}`),
      200,
    );
    expect(reports.data).toHaveLength(2);
  });

  it("finds a rule the video shows happening, types a hazard seen by its severity, and never counts a stated rule as met", async () => {
    const rulebook = await expectJson<{ id: string }>(
      await api.post("/rulebooks", {
        name: "Dock hours",
        rules: [
          {
            id: "dock-hours",
            title: "Loading dock closes at six pm",
            description:
              "The dock shuts at the end of the day shift, before the night crew arrives.",
          },
          { id: "dock", title: "Loading dock closes at six pm", kind: "hazard", severity: "high" },
          {
            id: "vests",
            title: "Forklift operators must wear high visibility vests",
            severity: "critical",
          },
        ],
      }),
      201,
    );
    const workflow = await expectJson<{ id: string }>(
      await api.post("/workflows", {
        name: "Dock hours review",
        playbook: "Judge only what the briefing says.",
        rulebook_id: rulebook.id,
        source_ids: [videos[0]],
      }),
      201,
    );
    const run = await waitForWorkflowRun(api, (await startWorkflowRun(api, workflow.id)).id);
    const byRule = new Map(
      (await allFindings(api, `run_id=${run.id}`)).map((f) => [f.rule_id, f] as const),
    );
    const observed = await expectJson<FindingDto>(
      await api.get(`/findings/${byRule.get("dock-hours")?.id}`),
      200,
    );
    expect(observed).toMatchObject({
      result_state: "found",
      type: "requirement_met",
      severity: "info",
      title: "Loading dock closes at six pm",
    });
    expect(observed.evidence.map((e) => e.text)).toContain("The loading dock closes at six pm.");
    expect(byRule.get("dock")).toMatchObject({
      result_state: "found",
      type: "hazard_observed",
      severity: "high",
    });
    // The report heads each verdict by its rule's title, never by ids.
    const report = await api.get(`/reports/${run.workflow.report_id}?expand[]=content`);
    const body = JSON.stringify(await report.json());
    expect(body).toContain("Loading dock closes at six pm — Warehouse safety briefing");
    expect(body).not.toContain(`"heading":"dock-hours/`);
    // The talk only states the vest rule: that is no evidence anyone wore one.
    expect(byRule.get("vests")).toMatchObject({
      result_state: "uncertain",
      reason_code: "instruction_not_observation",
      type: "needs_review",
      severity: "critical",
    });
  });

  it("checks the rule set frozen in the workflow, whatever the rulebook says later", async () => {
    const { workflowId: frozen, rulebook } = await workflowOver(api, [videos[0] ?? ""]);
    await expectJson(
      await api.request("PATCH", `/rulebooks/${rulebook.id}`, {
        body: { rules: [{ id: "only-new", title: "A rule added later" }] },
      }),
      200,
    );
    const run = await waitForWorkflowRun(api, (await startWorkflowRun(api, frozen)).id);
    expect(run.workflow.rule_set_version_id).toBe(rulebook.rule_set_version_id);
    const findings = await allFindings(api, `run_id=${run.id}`);
    expect(findings.map((f) => f.rule_id).sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  it("checks only the source snapshot's videos, and finds the run by them", async () => {
    const second = videos[1] ?? "";
    const run = await startWorkflowRun(api, workflowId, {
      source_snapshot: { source_ids: [second] },
    });
    expect(run.workflow.source_snapshot).toEqual({ source_ids: [second] });
    await waitForWorkflowRun(api, run.id);
    const findings = await allFindings(api, `run_id=${run.id}`);
    expect(new Set(findings.map((f) => f.video_id))).toEqual(new Set([second]));
    const listed = await expectJson<{ data: { id: string; workflow?: { workflow_id: string } }[] }>(
      await api.get(`/runs?video_id=${second}`),
      200,
    );
    expect(listed.data.find((r) => r.id === run.id)?.workflow?.workflow_id).toBe(workflowId);
    await expectProblem(
      await api.post("/runs", {
        kind: "workflow",
        workflow_id: workflowId,
        source_snapshot: { source_ids: ["vid_nope"] },
      }),
      404,
      "resource-not-found",
    );
    const bad = await expectProblem(
      await api.post("/runs", {
        kind: "workflow",
        workflow_id: workflowId,
        source_snapshot: { source_ids: [] },
      }),
      400,
      "invalid-request",
    );
    expect(bad.errors?.map((e) => e.path)).toContain("source_snapshot.source_ids");
  });

  it("holds the rulebook while queued (409 on DELETE), and a cancel mid-run leaves no findings", async () => {
    const run = await startWorkflowRun(api, workflowId, { execute_now: false });
    const held = await expectJson<{ has_active_workflow_run: boolean }>(
      await api.get(`/rulebooks/${rulebookId}`),
      200,
    );
    expect(held.has_active_workflow_run).toBe(true);
    await expectProblem(await api.request("DELETE", `/rulebooks/${rulebookId}`), 409, "conflict");
    const coordinator = env.RUNS.getByName(run.id);
    expect(await coordinator.begin()).toBe(true);
    await expectJson(await api.post(`/runs/${run.id}/cancel`, {}), 200);
    const deps = createDeps(env, createPorts(env));
    await executeRun(deps, { type: "run-analysis", run_id: run.id, workspace_id: workspaceId });
    const ended = await waitForWorkflowRun(api, run.id);
    expect(ended.status).toBe("canceled");
    expect(await findingCount(run.id)).toBe(0);
    const free = await expectJson<{ has_active_workflow_run: boolean }>(
      await api.get(`/rulebooks/${rulebookId}`),
      200,
    );
    expect(free.has_active_workflow_run).toBe(false);
  });
});

describe("findings access", () => {
  it("keeps findings inside their workspace", async () => {
    const other = await newTenant();
    const [finding] = await allFindings(api, `run_id=${runId}`);
    if (!finding) throw new Error("no finding");
    await expectProblem(await other.api.get(`/findings/${finding.id}`), 404, "resource-not-found");
    await expectProblem(
      await other.api.post(`/findings/${finding.id}/review`, { status: "confirmed" }),
      404,
      "resource-not-found",
    );
    expect(await allFindings(other.api, `run_id=${runId}`)).toEqual([]);
    await expectProblem(
      await other.api.post("/runs", { kind: "workflow", workflow_id: workflowId }),
      404,
      "resource-not-found",
    );
  });

  it("asks VIEW_INSIGHTS to read and review findings and RUN_WORKFLOWS to start a workflow run", async () => {
    const [finding] = await allFindings(api, `run_id=${runId}`);
    if (!finding) throw new Error("no finding");
    const runner = client((await createKey(workspaceId, { permissions: ["RUN_WORKFLOWS"] })).key);
    const viewer = client((await createKey(workspaceId, { permissions: ["VIEW_INSIGHTS"] })).key);
    await expectProblem(await runner.get("/findings"), 403, "forbidden");
    await expectProblem(await runner.get(`/findings/${finding.id}`), 403, "forbidden");
    await expectProblem(
      await runner.post(`/findings/${finding.id}/review`, { status: "confirmed" }),
      403,
      "forbidden",
    );
    await expectJson(await viewer.get(`/findings/${finding.id}`), 200);
    await expectProblem(
      await viewer.post("/runs", { kind: "workflow", workflow_id: workflowId }),
      403,
      "forbidden",
    );
    const started = await expectJson<{ id: string }>(
      await runner.post("/runs", { kind: "workflow", workflow_id: workflowId }),
      202,
    );
    await waitForWorkflowRun(api, started.id);
  });
});
