import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { insertVideos } from "../../helpers/factories";
import { type Client, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import {
  createRulebook,
  listAllRulebooks,
  patchRulebook,
  type Rulebook,
} from "../rulebooks/bodies";

interface Workflow {
  id: string;
  name: string;
  playbook: string;
  rulebook_id: string;
  rule_set_version_id: string;
  source_ids: string[];
  output_modes: string[];
  status: string;
  template_type: string;
  latest_run_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

async function world() {
  const tenant = await newTenant(["MANAGE_RULEBOOKS"]);
  const rulebook = await createRulebook(tenant.api);
  const videos = await insertVideos(tenant.workspaceId, 2);
  return { ...tenant, rulebook, videos };
}

function create(api: Client, body: Record<string, unknown>) {
  return api.post("/workflows", body);
}

describe("workflows", () => {
  it("creates a workflow with the rulebook's rule set frozen, readable and listed", async () => {
    const { api, keyId, rulebook, videos } = await world();
    const workflow = await expectJson<Workflow>(
      await create(api, {
        name: "Dock review",
        playbook: "People in the background count.",
        rulebook_id: rulebook.id,
        source_ids: videos,
      }),
      201,
    );
    expect(workflow).toMatchObject({
      name: "Dock review",
      playbook: "People in the background count.",
      rulebook_id: rulebook.id,
      rule_set_version_id: rulebook.rule_set_version_id,
      source_ids: videos,
      output_modes: ["findings", "json", "markdown"],
      status: "draft",
      template_type: "custom",
      latest_run_id: null,
      created_by: keyId,
    });
    expect(workflow.id).toMatch(/^wf_[0-9a-z]{26}$/);
    const edited = await expectJson<Rulebook>(
      await patchRulebook(api, rulebook.id, { rules: [{ id: "new", title: "A new rule" }] }),
      200,
    );
    expect(edited.rule_set_version_id).not.toBe(rulebook.rule_set_version_id);
    expect(await expectJson(await api.get(`/workflows/${workflow.id}`), 200)).toEqual(workflow);
    const page = await expectJson<{ data: Workflow[] }>(await api.get("/workflows"), 200);
    expect(page.data).toEqual([workflow]);
  });

  it("takes a shared template as its rulebook", async () => {
    const { api, videos } = await world();
    const template = (await listAllRulebooks(api)).find((r) => r.is_template);
    if (!template) throw new Error("no template");
    const workflow = await expectJson<Workflow>(
      await create(api, {
        name: "Brand check",
        rulebook_id: template.id,
        source_ids: [videos[0]],
        output_modes: ["findings"],
        status: "active",
        template_type: "brand_review",
      }),
      201,
    );
    expect(workflow).toMatchObject({
      rule_set_version_id: template.rule_set_version_id,
      output_modes: ["findings"],
      status: "active",
      template_type: "brand_review",
    });
  });

  it("answers 404 for an unreachable rulebook or video, 409 for a video not completed", async () => {
    const { api, workspaceId, rulebook, videos } = await world();
    const other = await newTenant(["MANAGE_RULEBOOKS"]);
    const foreignRulebook = await createRulebook(other.api);
    const [foreignVideo] = await insertVideos(other.workspaceId, 1);
    const [processing] = await insertVideos(workspaceId, 1, { status: "processing" });
    const body = (overrides: Record<string, unknown>) => ({
      name: "W",
      rulebook_id: rulebook.id,
      source_ids: videos,
      ...overrides,
    });
    await expectProblem(
      await create(api, body({ rulebook_id: foreignRulebook.id })),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await create(api, body({ rulebook_id: "rb_00000000000000000000000000" })),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await create(api, body({ source_ids: [videos[0], foreignVideo] })),
      404,
      "resource-not-found",
    );
    await expectProblem(await create(api, body({ source_ids: [processing] })), 409, "conflict");
    expect((await expectJson<{ data: unknown[] }>(await api.get("/workflows"), 200)).data).toEqual(
      [],
    );
    await expectProblem(
      await api.get("/workflows/wf_00000000000000000000000000"),
      404,
      "resource-not-found",
    );
  });

  it("answers 400 naming the field for bad input", async () => {
    const { api, rulebook, videos } = await world();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "" }, "name"],
      [{ source_ids: [] }, "source_ids"],
      [{ source_ids: [videos[0], videos[0]] }, "source_ids[1]"],
      [{ output_modes: ["pdf"] }, "output_modes[0]"],
      [{ status: "live" }, "status"],
      [{ template_type: "has space" }, "template_type"],
      [{ rulebook_id: undefined }, "rulebook_id"],
      [{ extra: 1 }, "extra"],
    ];
    for (const [overrides, path] of cases) {
      const problem = await expectProblem(
        await create(api, {
          name: "W",
          rulebook_id: rulebook.id,
          source_ids: videos,
          ...overrides,
        }),
        400,
        "invalid-request",
      );
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(overrides),
      ).toContain(path);
    }
  });

  it("keeps workspaces apart: another workspace's workflow answers 404", async () => {
    const { api, rulebook, videos } = await world();
    const workflow = await expectJson<Workflow>(
      await create(api, { name: "Mine", rulebook_id: rulebook.id, source_ids: videos }),
      201,
    );
    const other = await newTenant(["MANAGE_RULEBOOKS"]);
    await expectProblem(
      await other.api.get(`/workflows/${workflow.id}`),
      404,
      "resource-not-found",
    );
    expect(
      (await expectJson<{ data: unknown[] }>(await other.api.get("/workflows"), 200)).data,
    ).toEqual([]);
  });

  it("pages through every workflow once, newest first", async () => {
    const { api, rulebook, videos } = await world();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(
        (
          await expectJson<Workflow>(
            await create(api, { name: `W${i}`, rulebook_id: rulebook.id, source_ids: videos }),
            201,
          )
        ).id,
      );
    }
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 8 }), async (limit) => {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const query: string = `/workflows?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
          const page: { data: Workflow[]; next_cursor: string | null } = await expectJson(
            await api.get(query),
            200,
          );
          seen.push(...page.data.map((w) => w.id));
          cursor = page.next_cursor;
        } while (cursor !== null);
        expect(seen).toEqual([...ids].reverse());
      }),
      { numRuns: 8 },
    );
  });
});
