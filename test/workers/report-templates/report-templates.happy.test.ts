import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Client, client, createKey, expectJson, newTenant } from "../../helpers/harness";
import { listAll } from "../heads/shared";
import {
  createBody,
  fullBlock,
  type Template,
  type TemplatePage,
  type TemplateVersion,
  versionBody,
} from "./bodies";

async function create(api: Client, overrides: Record<string, unknown> = {}): Promise<Template> {
  return expectJson<Template>(await api.post("/report-templates", createBody(overrides)), 201);
}

describe("report templates: create, version, read, archive, list", () => {
  it("creates a template head with an immutable version 1 holding every block field", async () => {
    const { api, keyId } = await newTenant(["RUN_WORKFLOWS"]);
    const template = await create(api);
    expect(template).toMatchObject({
      name: "Weekly dock review",
      description: "One table per dock.",
      status: "active",
      anonymous: false,
      latest_version: 1,
      created_by: keyId,
      updated_by: keyId,
    });
    expect(template.id).toMatch(/^tpl_[0-9a-z]{26}$/);
    expect(template.latest).toEqual({
      report_template_id: template.id,
      version: 1,
      ...versionBody(1),
      created_by: keyId,
      created_at: template.created_at,
    });
    expect(template.latest?.blocks[1]).toEqual(fullBlock());
    expect(await expectJson(await api.get(`/report-templates/${template.id}`), 200)).toEqual(
      template,
    );
  });

  it("accepts the block types and language tags it documents", async () => {
    const { api } = await newTenant(["RUN_WORKFLOWS"]);
    const types = [
      "heading",
      "narrative",
      "timeline",
      "table",
      "verdict",
      "measurement",
      "enumeration",
      "comparison",
      "retrieval",
    ];
    for (const language of ["en", "ja", "pt-BR", "zh-Hant-TW", "fil"]) {
      const template = await create(api, { language, blocks: types.map((type) => ({ type })) });
      expect(template.latest).toMatchObject({ language, blocks: types.map((type) => ({ type })) });
    }
  });

  it("appends versions, resolves the latest and keeps every earlier version unchanged", async () => {
    const { api, workspaceId, keyId } = await newTenant(["RUN_WORKFLOWS"]);
    const template = await create(api);
    const otherKey = await createKey(workspaceId, { permissions: ["RUN_WORKFLOWS"] });
    const two = await expectJson<TemplateVersion>(
      await client(otherKey.key).post(
        `/report-templates/${template.id}/versions`,
        versionBody(2, "ja"),
      ),
      201,
    );
    expect(two).toMatchObject({
      report_template_id: template.id,
      version: 2,
      ...versionBody(2, "ja"),
      created_by: otherKey.id,
    });
    const head = await expectJson<Template>(await api.get(`/report-templates/${template.id}`), 200);
    expect(head).toMatchObject({
      latest_version: 2,
      latest: two,
      created_by: keyId,
      updated_by: otherKey.id,
    });
    expect(
      await expectJson(await api.get(`/report-templates/${template.id}/versions/1`), 200),
    ).toEqual(template.latest);
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const res = await api.request(method, `/report-templates/${template.id}/versions/1`, {
        body: versionBody(9),
      });
      expect(res.status, await res.text()).toBe(405);
    }
  });

  it("archives idempotently and keeps archived templates readable", async () => {
    const { api } = await newTenant(["RUN_WORKFLOWS"]);
    const template = await create(api);
    const archived = await expectJson<Template>(
      await api.request("POST", `/report-templates/${template.id}/archive`),
      200,
    );
    expect(archived).toMatchObject({
      status: "archived",
      latest_version: 1,
      latest: template.latest,
    });
    expect(
      await expectJson(await api.post(`/report-templates/${template.id}/archive`, {}), 200),
    ).toEqual(archived);
    expect(await expectJson(await api.get(`/report-templates/${template.id}`), 200)).toEqual(
      archived,
    );
  });

  it("lists active, named templates newest first; archived ones under status=archived", async () => {
    const { api } = await newTenant(["RUN_WORKFLOWS"]);
    const created: Template[] = [];
    for (let i = 0; i < 6; i++) created.push(await create(api, { name: `Template ${i}` }));
    const anonymous = await create(api, { name: undefined });
    expect(anonymous).toMatchObject({ anonymous: true, name: null });
    await expectJson(await api.get(`/report-templates/${anonymous.id}`), 200);
    const archivedId = created[2]?.id ?? "";
    await api.post(`/report-templates/${archivedId}/archive`);
    const active = created.map((t) => t.id).filter((id) => id !== archivedId);

    expect(await listAll(api, "/report-templates", "", 4)).toEqual([...active].reverse());
    expect(await listAll(api, "/report-templates", "&status=archived", 25)).toEqual([archivedId]);
    const page = await expectJson<TemplatePage>(await api.get("/report-templates?limit=1"), 200);
    expect(page.data[0]).not.toHaveProperty("latest");
  });

  it("replays a create with the same Idempotency-Key and creates one template", async () => {
    const { api, workspaceId } = await newTenant(["RUN_WORKFLOWS"]);
    const key = { "Idempotency-Key": "create-template-1" };
    const responses = await Promise.all(
      [0, 1, 2].map(() => api.post("/report-templates", createBody(), key)),
    );
    const bodies = await Promise.all(responses.map((res) => res.text()));
    expect(
      responses.map((res) => res.status),
      bodies.join("\n"),
    ).toEqual([201, 201, 201]);
    expect(new Set(bodies).size).toBe(1);
    const row = await env.DB.prepare(
      "SELECT count(*) AS n FROM report_templates WHERE workspace_id = ?",
    )
      .bind(workspaceId)
      .first<{ n: number }>();
    expect(row?.n).toBe(1);
  });
});
