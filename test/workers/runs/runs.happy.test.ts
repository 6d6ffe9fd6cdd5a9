import { beforeAll, describe, expect, it } from "vitest";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { outbox, uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, SAFETY_PROFILE, waitForRun } from "../../helpers/runs";

let api: Client;
let workspaceId: string;
let videoId: string;

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant());
  videoId = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
}, 60_000);

describe("analysis runs", () => {
  it("accepts a run with 202 queued/accepted and completes it with typed answers", async () => {
    const profileId = await createProfile(api);
    const accepted = await expectJson<RunDto>(
      await api.post("/runs", { kind: "analysis", source_ids: [videoId], profile_id: profileId }),
      202,
    );
    expect(accepted).toMatchObject({
      kind: "analysis",
      status: "queued",
      analysis: {
        sub_state: "accepted",
        source_ids: [videoId],
        profile_id: profileId,
        profile_version: 1,
        execution_profile_ref: "balanced-analysis@1",
        locale: "en",
        formats: [],
      },
    });
    expect(accepted.id).toMatch(/^run_/);
    const run = await waitForRun(api, accepted.id);
    expect(run).toMatchObject({ status: "completed", analysis: { sub_state: "completed" } });
    expect(run.analysis.answer_references?.map((a) => [a.answer_key, a.answer_type])).toEqual([
      ["vests_required", "verdict"],
      ["safety_rules", "timeline"],
      ["signage_visible", "verdict"],
    ]);
    const answers = await expectJson<{
      data: {
        key: string;
        result_state: string;
        reason_code?: string;
        answer_payload: {
          items: { evidence: { clip_url: string; start_time: number; end_time: number }[] }[];
        };
      }[];
    }>(await api.get(`/runs/${run.id}/answers`), 200);
    const byKey = Object.fromEntries(answers.data.map((a) => [a.key, a]));
    expect(byKey.vests_required?.result_state).toBe("found");
    const evidence = byKey.vests_required?.answer_payload.items[0]?.evidence[0];
    expect(evidence).toMatchObject({ start_time: 5, end_time: 8.5 });
    expect(evidence?.clip_url).toMatch(/X-Amz-Signature=.*#t=5,8\.5$/);
    // Scene evidence was never extracted locally: never found, never not_found.
    expect(byKey.signage_visible).toMatchObject({
      result_state: "not_checked",
      reason_code: "required_evidence_not_extracted",
    });
    expect(run.analysis.result_state).not.toBe("found");
    expect(run.analysis.limitations).toContain("required_evidence_not_extracted");
    // The event shows the run exactly as GET /runs/{id} does.
    const events = (await outbox(workspaceId)) as unknown as { type: string; data: unknown }[];
    expect(events.filter((e) => e.type === "run.completed").map((e) => e.data)).toEqual([
      { run: await expectJson(await api.get(`/runs/${run.id}`), 200) },
    ]);
  });

  it("records the resolved latest version and the inputs in immutable snapshots", async () => {
    const profileId = await createProfile(api);
    await expectJson(
      await api.post(`/profiles/${profileId}/versions`, {
        instructions: "v2",
        answer_specs: SAFETY_PROFILE.answer_specs.slice(0, 1),
      }),
      201,
    );
    const accepted = await expectJson<RunDto>(
      await api.post("/runs", { source_ids: [videoId], profile_id: profileId }),
      202,
    );
    expect(accepted.analysis.profile_version).toBe(2);
    const pinned = await expectJson<RunDto>(
      await api.post("/runs", { source_ids: [videoId], profile_id: profileId, profile_version: 1 }),
      202,
    );
    expect(pinned.analysis.profile_version).toBe(1);
    const run = await waitForRun(api, accepted.id, "?expand[]=snapshots&expand[]=provenance");
    expect(run.analysis.snapshots?.profile).toMatchObject({
      profile_id: profileId,
      profile_version: 2,
      instructions: "v2",
    });
    expect(run.analysis.snapshots?.input).toMatchObject({
      source_ids: [videoId],
      execution_profile_ref: "balanced-analysis@1",
    });
    expect(run.analysis.snapshots?.output).toMatchObject({
      answers: [expect.objectContaining({ answer_key: "vests_required" })],
    });
    expect(run.analysis.analysis_profile_snapshot_id).toMatch(/^snap_/);
    expect(run.analysis.provenance).toMatchObject({
      engine: "local-rules@4",
      execution_profile: "balanced-analysis@1",
      usage: { media_seconds: 24, input_tokens: 0 },
    });
    const plain = await expectJson<RunDto>(await api.get(`/runs/${run.id}`), 200);
    expect(plain.analysis.snapshots).toBeUndefined();
    expect(plain.analysis.provenance).toBeUndefined();
    expect((await waitForRun(api, pinned.id)).analysis.answer_references).toHaveLength(3);
  });

  it("renders the requested report formats when the run completes", async () => {
    const profileId = await createProfile(api);
    const accepted = await expectJson<RunDto>(
      await api.post("/runs", {
        source_ids: [videoId],
        profile_id: profileId,
        formats: ["markdown", "json"],
      }),
      202,
    );
    await waitForRun(api, accepted.id);
    let reports: { data: { format: string; content?: string; request_id: string }[] } = {
      data: [],
    };
    for (let i = 0; i < 50 && reports.data.length < 2; i++) {
      reports = await expectJson(
        await api.get(`/reports?run_id=${accepted.id}&expand[]=content`),
        200,
      );
    }
    expect(reports.data.map((r) => r.format).sort()).toEqual(["json", "markdown"]);
    expect(reports.data.every((r) => r.request_id === accepted.analysis.request_id)).toBe(true);
    const markdown = reports.data.find((r) => r.format === "markdown")?.content ?? "";
    expect(markdown).toContain("Forklift operators must wear high visibility vests");
    expect(markdown).not.toMatch(/signage_visible[^\n]*\n[^\n]*Pass/);
  });

  it("lists runs newest first, filtered by status and by video", async () => {
    const { api: own } = await newTenant();
    const video = (await waitForFinal(own, (await uploadFixture(own, "silent.mp4")).id)).id;
    const profileId = await createProfile(own);
    const first = await expectJson<RunDto>(
      await own.post("/runs", { source_ids: [video], profile_id: profileId }),
      202,
    );
    const second = await expectJson<RunDto>(
      await own.post("/runs", { source_ids: [video], profile_id: profileId, execute_now: false }),
      202,
    );
    await waitForRun(own, first.id);
    const all = await expectJson<{ data: RunDto[] }>(await own.get("/runs"), 200);
    expect(all.data.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(
      (await expectJson<{ data: RunDto[] }>(await own.get("/runs?status=queued"), 200)).data.map(
        (r) => r.id,
      ),
    ).toEqual([second.id]);
    expect(
      (await expectJson<{ data: RunDto[] }>(await own.get(`/runs?video_id=${video}`), 200)).data,
    ).toHaveLength(2);
    expect(
      (
        await expectJson<{ data: RunDto[] }>(
          await own.get("/runs?video_id=vid_00000000000000000000000000"),
          200,
        )
      ).data,
    ).toEqual([]);
  });
});
