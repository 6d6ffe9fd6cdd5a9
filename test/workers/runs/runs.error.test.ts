import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { insertVideos } from "../../helpers/factories";
import { type Client, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, SAFETY_PROFILE, waitForRun } from "../../helpers/runs";

let api: Client;
let workspaceId: string;
let videoId: string;
let profileId: string;

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant());
  videoId = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  profileId = await createProfile(api);
}, 60_000);

describe("POST /runs refuses what it cannot run", () => {
  it("names missing and invalid fields", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ profile_id: "prof_x" }, "source_ids"],
      [{ source_ids: ["vid_x"] }, "profile_id"],
      [{ source_ids: [], profile_id: "prof_x" }, "source_ids"],
      [{ source_ids: ["a", "a"], profile_id: "prof_x" }, "source_ids"],
      [
        { source_ids: ["a"], profile_id: "prof_x", execution_profile_ref: "turbo@1" },
        "execution_profile_ref",
      ],
      [{ source_ids: ["a"], profile_id: "prof_x", profile_version: 0 }, "profile_version"],
      [{ source_ids: ["a"], profile_id: "prof_x", formats: ["pdf"] }, "formats[0]"],
      [{ source_ids: ["a"], profile_id: "prof_x", locale: "English" }, "locale"],
      [{ source_ids: ["a"], profile_id: "prof_x", kind: "batch" }, "kind"],
      [{ source_ids: ["a"], profile_id: "prof_x", mystery: 1 }, "mystery"],
      [
        { source_ids: ["a"], profile_id: "prof_x", report_template_version: 2 },
        "report_template_version",
      ],
      [{ source_ids: ["a"], profile_id: "prof_x", formats: Array(11).fill("json") }, "formats"],
    ];
    for (const [body, field] of cases) {
      const problem = await expectProblem(await api.post("/runs", body), 400, "invalid-request");
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(body),
      ).toContain(field);
    }
  });

  it("says what each kind needs, in the problem and in the OpenAPI document", async () => {
    const cases: [Record<string, unknown>, { path: string; message: string }[]][] = [
      [
        {},
        [
          { path: "source_ids", message: "is required for an analysis run" },
          { path: "profile_id", message: "is required for an analysis run" },
        ],
      ],
      [
        { kind: "analysis", source_ids: ["a", "a"], profile_id: "prof_x" },
        [{ path: "source_ids", message: "must not repeat a video" }],
      ],
      [
        { source_ids: ["a"], profile_id: "prof_x", report_template_version: 2 },
        [{ path: "report_template_version", message: "needs report_template_id" }],
      ],
      [
        { source_ids: ["a"], profile_id: "prof_x", workflow_id: "wf_x" },
        [{ path: "workflow_id", message: "is not a known field" }],
      ],
      [{ kind: "workflow" }, [{ path: "workflow_id", message: "is required for a workflow run" }]],
      [
        { kind: "workflow", workflow_id: "wf_x", source_ids: ["a"] },
        [{ path: "source_ids", message: "is not a known field" }],
      ],
      [{ kind: "batch" }, [{ path: "kind", message: 'must be "analysis" or "workflow"' }]],
    ];
    for (const [body, errors] of cases) {
      const problem = await expectProblem(await api.post("/runs", body), 400, "invalid-request");
      expect(problem.errors, JSON.stringify(body)).toEqual(errors);
    }

    const doc = await expectJson<{ components: { schemas: Record<string, unknown> } }>(
      await api.get("/openapi.json"),
      200,
    );
    const schemas = doc.components.schemas;
    expect(schemas.CreateRunRequest).toMatchObject({
      oneOf: [
        { $ref: "#/components/schemas/AnalysisRunRequest" },
        { $ref: "#/components/schemas/WorkflowRunRequest" },
      ],
    });
    // `kind` may be left out, so no discriminator and no `default` a generator would require.
    expect(schemas.CreateRunRequest).not.toHaveProperty("discriminator");
    expect(schemas.AnalysisRunRequest).toMatchObject({
      required: ["source_ids", "profile_id"],
      additionalProperties: false,
      properties: { kind: { enum: ["analysis"], description: expect.stringContaining("Default") } },
    });
    expect(schemas.WorkflowRunRequest).toMatchObject({
      required: ["kind", "workflow_id"],
      additionalProperties: false,
    });
  });

  it("refuses inline profiles and templates, as the spec says", async () => {
    for (const field of ["answer_specs", "instructions", "report_template", "profile"]) {
      const body = {
        source_ids: [videoId],
        profile_id: profileId,
        [field]: field === "answer_specs" ? SAFETY_PROFILE.answer_specs : "x",
      };
      const problem = await expectProblem(await api.post("/runs", body), 400, "invalid-request");
      expect(problem.errors?.[0]).toMatchObject({
        path: field,
        message: expect.stringContaining("inline"),
      });
    }
  });

  it("answers 404 for unknown or foreign videos, profiles, versions and templates", async () => {
    const other = await newTenant();
    const foreignVideo = (await insertVideos(other.workspaceId, 1))[0] ?? "";
    const foreignProfile = await createProfile(other.api);
    const cases: Record<string, unknown>[] = [
      { source_ids: ["vid_00000000000000000000000000"], profile_id: profileId },
      { source_ids: [videoId, foreignVideo], profile_id: profileId },
      { source_ids: [videoId], profile_id: "prof_00000000000000000000000000" },
      { source_ids: [videoId], profile_id: foreignProfile },
      { source_ids: [videoId], profile_id: profileId, profile_version: 9 },
      {
        source_ids: [videoId],
        profile_id: profileId,
        report_template_id: "tpl_00000000000000000000000000",
      },
      { kind: "workflow", workflow_id: "wf_00000000000000000000000000" },
    ];
    for (const body of cases)
      await expectProblem(await api.post("/runs", body), 404, "resource-not-found");
    const runs = await env.DB.prepare("SELECT count(*) AS n FROM runs WHERE workspace_id = ?")
      .bind(workspaceId)
      .first<{ n: number }>();
    expect(runs?.n).toBe(0);
  });

  it("answers 409 for a video that is not completed yet", async () => {
    const [processing = ""] = await insertVideos(workspaceId, 1, { status: "processing" });
    const problem = await expectProblem(
      await api.post("/runs", { source_ids: [processing], profile_id: profileId }),
      409,
      "conflict",
    );
    expect(problem.detail).toContain(processing);
  });

  it("validates expand[] on GET /runs/{run_id}", async () => {
    const run = await expectJson<RunDto>(
      await api.post("/runs", { source_ids: [videoId], profile_id: profileId }),
      202,
    );
    for (const expand of ["events.evidence.more", "content", "everything"]) {
      const problem = await expectProblem(
        await api.get(`/runs/${run.id}?expand[]=${expand}`),
        400,
        "invalid-request",
      );
      expect(problem.errors?.[0]?.path).toBe("expand[]");
    }
    expect((await api.get(`/runs/${run.id}?expand[]=snapshots&expand[]=provenance`)).status).toBe(
      200,
    );
    await waitForRun(api, run.id);
  });

  it("keeps runs, answers and reports inside their workspace", async () => {
    const run = await expectJson<RunDto>(
      await api.post("/runs", { source_ids: [videoId], profile_id: profileId, formats: ["json"] }),
      202,
    );
    await waitForRun(api, run.id);
    const other = await newTenant();
    await expectProblem(await other.api.get(`/runs/${run.id}`), 404, "resource-not-found");
    await expectProblem(await other.api.get(`/runs/${run.id}/answers`), 404, "resource-not-found");
    await expectProblem(await other.api.post(`/runs/${run.id}/cancel`), 404, "resource-not-found");
    await expectProblem(
      await other.api.post(`/runs/${run.id}/reports`, { formats: ["json"] }),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await other.api.get(`/reports?run_id=${run.id}`),
      404,
      "resource-not-found",
    );
    expect((await expectJson<{ data: unknown[] }>(await other.api.get("/runs"), 200)).data).toEqual(
      [],
    );
    const reports = await expectJson<{ data: { id: string }[] }>(
      await api.get(`/reports?run_id=${run.id}`),
      200,
    );
    for (const report of reports.data)
      await expectProblem(await other.api.get(`/reports/${report.id}`), 404, "resource-not-found");
  });

  it("replays an idempotent POST /runs without a second run", async () => {
    const { api: own, workspaceId: ws } = await newTenant();
    const video = (await waitForFinal(own, (await uploadFixture(own, "silent.mp4")).id)).id;
    const profile = await createProfile(own);
    const body = { source_ids: [video], profile_id: profile };
    const [a, b] = await Promise.all([
      own.post("/runs", body, { "Idempotency-Key": "r1" }),
      own.post("/runs", body, { "Idempotency-Key": "r1" }),
    ]);
    expect(a?.status).toBe(202);
    expect(await a?.text()).toBe(await b?.text());
    const runs = await env.DB.prepare("SELECT count(*) AS n FROM runs WHERE workspace_id = ?")
      .bind(ws)
      .first<{ n: number }>();
    expect(runs?.n).toBe(1);
  });
});
