import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { insertVideos } from "../../helpers/factories";
import {
  type Client,
  expectJson,
  expectProblem,
  newTenant,
  workerFetch,
} from "../../helpers/harness";
import { outbox, uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, SAFETY_PROFILE, waitForRun } from "../../helpers/runs";

interface Report {
  id: string;
  run_id: string;
  format: string;
  content_type: string;
  content_identity: string;
  output_identity: string;
  report_template_ref: string;
  analysis_profile_ref: string;
  content?: string;
  manifest?: {
    answers: { answer_id: string }[];
    evidence: { evidence_id: string; clip_url: string; start_time: number }[];
  };
}

let api: Client;
let workspaceId: string;
let runId: string;

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant());
  const video = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  const profileId = await createProfile(api);
  runId = (
    await expectJson<RunDto>(
      await api.post("/runs", { source_ids: [video], profile_id: profileId }),
      202,
    )
  ).id;
  await waitForRun(api, runId);
}, 60_000);

async function render(body: Record<string, unknown>, query = ""): Promise<Report[]> {
  return (
    await expectJson<{ data: Report[]; has_more: boolean; next_cursor: null }>(
      await api.post(`/runs/${runId}/reports${query}`, body),
      201,
    )
  ).data;
}

describe("reports", () => {
  it("renders one immutable report per format, byte-identical for the same inputs", async () => {
    const first = await render({ formats: ["json", "markdown"] }, "?expand[]=content");
    expect(first.map((r) => [r.format, r.content_type])).toEqual([
      ["json", "application/json"],
      ["markdown", "text/markdown"],
    ]);
    const json = first[0];
    expect(JSON.parse(json?.content ?? "")).toHaveProperty("report");
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(json?.content ?? "")),
    );
    expect(json?.content_identity).toBe(
      `sha256:${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`,
    );
    expect(json?.report_template_ref).toBe("default@1");
    expect(json?.analysis_profile_ref).toMatch(/^snap_/);
    const second = await render({ formats: ["json", "markdown"] });
    expect(second.map((r) => r.content_identity)).toEqual(first.map((r) => r.content_identity));
    expect(second.map((r) => r.output_identity)).toEqual(first.map((r) => r.output_identity));
    expect(second.map((r) => r.id)).not.toEqual(first.map((r) => r.id));
    const again = await expectJson<Report>(
      await api.get(`/reports/${json?.id}?expand[]=content`),
      200,
    );
    expect(again.content).toBe(json?.content);
  });

  it("announces each report with report.created carrying the body GET /reports/{id} answers", async () => {
    const [report] = await render({ formats: ["markdown"] });
    const got = await expectJson<Report>(await api.get(`/reports/${report?.id}`), 200);
    const events = (await outbox(workspaceId)) as unknown as {
      type: string;
      data: { report: Report };
    }[];
    const announced = events.filter(
      (e) => e.type === "report.created" && e.data.report.id === got.id,
    );
    expect(announced.map((e) => e.data.report)).toEqual([got]);
  });

  it("renders an inline template in Japanese, and never as a pass what is not found", async () => {
    const [report] = await render(
      {
        formats: ["markdown"],
        report_template: {
          id: "inline-ja",
          version: 1,
          language: "ja",
          blocks: [
            { type: "verdict", answer_key: "signage_visible", label: "標識" },
            { type: "verdict", answer_key: "vests_required", label: "ベスト" },
          ],
        },
      },
      "?expand[]=content",
    );
    expect(report?.report_template_ref).toBe("inline-ja@1");
    expect(report?.content).toContain("未確認");
    expect(report?.content).toContain("合格");
    const signage = report?.content?.split("ベスト")[0] ?? "";
    expect(signage).not.toContain("合格");
  });

  it("renders the run's stored template version", async () => {
    const template = await expectJson<{ id: string }>(
      await api.post("/report-templates", {
        name: "Site Safety (Dock 3)",
        language: "en",
        blocks: [{ type: "timeline", answer_key: "safety_rules", label: "Rules" }],
      }),
      201,
    );
    const video = (await expectJson<RunDto>(await api.get(`/runs/${runId}`), 200)).analysis
      .source_ids;
    const profileId = (await expectJson<RunDto>(await api.get(`/runs/${runId}`), 200)).analysis
      .profile_id;
    const run = await expectJson<RunDto>(
      await api.post("/runs", {
        source_ids: video,
        profile_id: profileId,
        report_template_id: template.id,
        formats: ["markdown"],
      }),
      202,
    );
    expect(run.analysis).toMatchObject({
      report_template_id: template.id,
      report_template_version: 1,
    });
    await waitForRun(api, run.id);
    let reports: Report[] = [];
    for (let i = 0; i < 50 && reports.length === 0; i++) {
      reports = (
        await expectJson<{ data: Report[] }>(await api.get(`/reports?run_id=${run.id}`), 200)
      ).data;
    }
    // The spec's name@version form (its Run section): lowercase alphanumeric groups joined by
    // hyphens.
    expect(reports[0]?.report_template_ref).toBe("site-safety-dock-3@1");
  });

  it("binds a manifest of answers and evidence with signed clip URLs", async () => {
    const [report] = await render({ formats: ["json"] }, "?expand[]=manifest");
    expect(report?.manifest?.answers.length).toBe(3);
    const evidence = report?.manifest?.evidence ?? [];
    expect(evidence.length).toBeGreaterThan(0);
    expect(evidence[0]?.clip_url).toMatch(new RegExp(`#t=${evidence[0]?.start_time},`));
    const clip = await workerFetch((evidence[0]?.clip_url ?? "").replace(/#.*$/, ""), {
      headers: { range: "bytes=0-9" },
    });
    expect(clip.status).toBe(206);
    expect(report?.content).toBeUndefined();

    // The row names the manifest in R2 (it grows with answers x evidence); a row that still
    // holds its manifest inline, as rows made before did, reads the same.
    const row = await env.DB.prepare("SELECT manifest FROM reports WHERE id = ?")
      .bind(report?.id)
      .first<{ manifest: string }>();
    const stored = JSON.parse(row?.manifest ?? "{}");
    expect(Object.keys(stored).sort()).toEqual(["content_identity", "object_key"]);
    const inline = await (await env.MEDIA_BUCKET.get(stored.object_key))?.text();
    await env.DB.prepare("UPDATE reports SET manifest = ? WHERE id = ?")
      .bind(inline, report?.id)
      .run();
    const again = await expectJson<Report>(
      await api.get(`/reports/${report?.id}?expand[]=manifest`),
      200,
    );
    expect(again.manifest?.answers).toEqual(report?.manifest?.answers);
    expect(again.manifest?.evidence.map((e) => e.evidence_id)).toEqual(
      evidence.map((e) => e.evidence_id),
    );
  });

  it("refuses bad requests", async () => {
    await expectProblem(
      await api.post(`/runs/${runId}/reports`, { formats: [] }),
      400,
      "invalid-request",
    );
    await expectProblem(
      await api.post(`/runs/${runId}/reports`, { formats: ["pdf"] }),
      400,
      "invalid-request",
    );
    await expectProblem(
      await api.post("/runs/run_00000000000000000000000000/reports", { formats: ["json"] }),
      404,
      "resource-not-found",
    );
    await expectProblem(await api.get("/reports"), 400, "invalid-request");
    await expectProblem(
      await api.get("/reports?run_id=run_00000000000000000000000000"),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await api.get(`/reports?run_id=${runId}&expand[]=snapshots`),
      400,
      "invalid-request",
    );
    await expectProblem(
      await api.get("/reports/rep_00000000000000000000000000"),
      404,
      "resource-not-found",
    );
    const pending = await expectJson<RunDto>(
      await api.post("/runs", {
        source_ids: (await expectJson<RunDto>(await api.get(`/runs/${runId}`), 200)).analysis
          .source_ids,
        profile_id: (await expectJson<RunDto>(await api.get(`/runs/${runId}`), 200)).analysis
          .profile_id,
        execute_now: false,
      }),
      202,
    );
    await expectProblem(
      await api.post(`/runs/${pending.id}/reports`, { formats: ["json"] }),
      409,
      "conflict",
    );
  });
});

describe("processing budgets", () => {
  it("runs out on the economy profile: partial answers, budget_exhausted, never a silent cut", async () => {
    const [long = ""] = await insertVideos(workspaceId, 1, {
      status: "completed",
      duration: 500,
      media: {
        title: "Long shift",
        coverage: { transcript: true, ocr: false, scene: false, metadata: false },
        limitations: [],
      },
    });
    // 50 segments of 8 s: 400 media seconds per full read, against the economy budget of 600.
    const insert = env.DB.prepare(
      "INSERT INTO video_segments (id, video_id, workspace_id, position, start_time, end_time, scene_description, transcript, tags, evidence, created_at) VALUES (?, ?, ?, ?, ?, ?, 'Captioned speech', ?, '[]', ?, ?)",
    );
    const now = new Date().toISOString();
    await env.DB.batch(
      Array.from({ length: 50 }, (_, i) => {
        const text =
          i === 0
            ? "Forklift operators must wear high visibility vests."
            : `Pallet row ${i} was counted.`;
        const evidence = JSON.stringify([
          { kind: "transcript", start: i * 8 + 1, end: i * 8 + 4, text, source: "text-track:0" },
        ]);
        return insert.bind(
          `seg_${long.slice(4)}_${String(i).padStart(5, "0")}`,
          long,
          workspaceId,
          i,
          i * 8,
          i * 8 + 8,
          text,
          evidence,
          now,
        );
      }),
    );
    const profileId = await createProfile(api, { ...SAFETY_PROFILE, name: "Budget" });
    const accepted = await expectJson<RunDto>(
      await api.post("/runs", {
        source_ids: [long],
        profile_id: profileId,
        execution_profile_ref: "economy-analysis@1",
      }),
      202,
    );
    const run = await waitForRun(api, accepted.id, "?expand[]=provenance");
    expect(run.status).toBe("completed");
    expect(run.analysis.limitations).toContain("budget_exhausted");
    expect(run.analysis.reason_code).toBe("budget_exhausted");
    expect(run.analysis.provenance?.usage.media_seconds).toBeLessThanOrEqual(600);
    const answers = await expectJson<{
      data: { key: string; result_state: string; reason_code?: string; evidence_count: number }[];
    }>(await api.get(`/runs/${run.id}/answers`), 200);
    expect(answers.data).toHaveLength(3);
    expect(answers.data[0]).toMatchObject({ key: "vests_required", result_state: "found" });
    const cut = answers.data.filter((answer) => answer.reason_code === "budget_exhausted");
    expect(cut.length).toBeGreaterThan(0);
    for (const answer of cut) expect(answer.result_state).toBe("not_checked");
    for (const answer of answers.data)
      if (answer.result_state === "found") expect(answer.evidence_count).toBeGreaterThan(0);
  });
});
